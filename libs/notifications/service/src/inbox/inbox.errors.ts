import { BadRequestError, UnauthorizedError } from '@hub/contracts';

export class NothingSelectedError extends BadRequestError {
  constructor() {
    super('Give discussionIds (at least one 24-hex id) or applyToAll=true', 'NOTIFICATIONS_NOTHING_SELECTED');
  }
}

export class NoCallerError extends UnauthorizedError {
  constructor() {
    super('Notifications need a user token', 'NOTIFICATIONS_NO_USER');
  }
}

/** A lastUpdate the DTO's ISO 8601 check accepts but that names no instant (2024-W01-1, 20240101): a 400, not a RangeError. */
export class InvalidLastUpdateError extends BadRequestError {
  constructor() {
    super('lastUpdate must be an ISO 8601 date-time such as 2024-05-01T12:00:00Z');
  }
}
