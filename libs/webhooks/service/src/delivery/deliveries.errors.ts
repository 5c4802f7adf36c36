import { BadRequestError, NotFoundError } from '@hub/contracts';

export class DeliveryLogNotFoundError extends NotFoundError {
  constructor(logId: string) {
    super(`Log ${logId} not found for this webhook`, 'DELIVERY_LOG_NOT_FOUND');
  }
}

export class TestNeedsUrlError extends BadRequestError {
  constructor() {
    super(
      'This webhook starts a job instead of calling a URL: a test event would run the job, so none is sent',
      'WEBHOOK_TEST_NEEDS_URL',
    );
  }
}
