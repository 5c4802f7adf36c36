import { NotFoundError } from '@hub/contracts';

export class DeliveryLogNotFoundError extends NotFoundError {
  constructor(logId: string) {
    super(`Log ${logId} not found for this webhook`, 'DELIVERY_LOG_NOT_FOUND');
  }
}
