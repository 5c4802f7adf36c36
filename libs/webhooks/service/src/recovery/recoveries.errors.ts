import { BadRequestError, ConflictError, HubError, NotFoundError } from '@hub/contracts';

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

/** The webhook started its allowance of recoveries this hour (decision 0505). */
export class RecoveriesPerHourError extends HubError {
  constructor(limit: number, retryInSeconds: number) {
    super(
      'RECOVERY_RATE_LIMITED',
      429,
      `This webhook started ${limit} recoveries in the last hour: the limit is ${limit} (HUB_WEBHOOK_MAX_RECOVERIES_PER_HOUR); retry in ${retryInSeconds} s`,
    );
  }
}

/** Recoveries count against the daily trigger limit (decision 0505): none left in the last 24 hours. */
export class RecoveryTriggerLimitError extends HubError {
  constructor(limit: number) {
    super(
      'RECOVERY_TRIGGER_LIMIT',
      429,
      `This webhook used its ${limit} deliveries of the last 24 hours (HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY), recoveries included: nothing can be resent now`,
    );
  }
}
