import { BadRequestError, ForbiddenError, NotFoundError } from '@hub/contracts';

export class OwnTokenError extends ForbiddenError {
  constructor() {
    super('You cannot revoke your own token for your organization', 'OWN_TOKEN');
  }
}

/**
 * One answer for "no such active token" and "a token of someone outside the organization", so
 * an admin cannot learn whether an outsider's token is live.
 */
export class TokenNotInOrganizationError extends NotFoundError {
  constructor(organization: string) {
    super(`No member of ${organization} holds an active token matching this`, 'TOKEN_NOT_IN_ORG');
  }
}

export class TokenOrIdRequiredError extends BadRequestError {
  constructor() {
    super('give either token or tokenId', 'TOKEN_OR_ID_REQUIRED');
  }
}

/** No token with this id among the user's (another user's token is the same answer). */
export class UserTokenNotFoundError extends NotFoundError {
  constructor(user: string, tokenId: string) {
    super(`${user} has no token ${tokenId}`, 'TOKEN_NOT_FOUND');
  }
}
