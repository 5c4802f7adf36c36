import { BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError } from '@hub/contracts';

export class AuditStreamNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`Audit stream ${id} not found`, 'AUDIT_STREAM_NOT_FOUND');
  }
}

export class AuditStreamLimitError extends ConflictError {
  constructor(org: string, max: number) {
    super(`Organization ${org} already has ${max} audit streams, the most it may have`, 'AUDIT_STREAM_LIMIT');
  }
}

/** A field the type requires is missing, or one of another type was sent (the message names it). */
export class AuditStreamFieldError extends BadRequestError {
  constructor(message: string) {
    super(message, 'AUDIT_STREAM_FIELD');
  }
}

export class AuditStreamsDisabledError extends ServiceUnavailableError {
  constructor() {
    super(
      'Audit streams need HUB_SECRET_KEY on the organizations service to seal their credentials',
      'AUDIT_STREAMS_DISABLED',
    );
  }
}
