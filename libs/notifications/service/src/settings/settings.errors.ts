import { BadRequestError } from '@hub/contracts';

export class PrepaidAmountRequiredError extends BadRequestError {
  constructor() {
    super('prepaidAmount is required when enabling launch_prepaid_credits', 'PREPAID_AMOUNT_REQUIRED');
  }
}
