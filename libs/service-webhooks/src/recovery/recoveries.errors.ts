import { BadRequestError, ConflictError, NotFoundError } from '@hub/contracts';

export class RecoveryWindowError extends BadRequestError {
  constructor() {
    super('since must be before until', 'RECOVERY_WINDOW');
  }
}

/** A disabled or suspended webhook drops what it is given: enable it first. */
export class RecoveryOfDisabledWebhookError extends ConflictError {
  constructor() {
    super('The webhook is disabled or suspended: enable it first', 'RECOVERY_WEBHOOK_DISABLED');
  }
}

export class RecoveryRunningError extends ConflictError {
  constructor(id: string) {
    super(`Recovery ${id} of this webhook is still running`, 'RECOVERY_RUNNING');
  }
}

export class RecoveryNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`Recovery ${id} not found for this webhook`, 'RECOVERY_NOT_FOUND');
  }
}
