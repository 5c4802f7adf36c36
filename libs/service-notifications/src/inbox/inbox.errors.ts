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
