import { ForbiddenError, HubError, UnauthorizedError } from '@hub/contracts';

/** No `Authorization: Bearer …` on a route that needs a user token. */
export class BearerTokenRequiredError extends UnauthorizedError {
  constructor() {
    super('Authorization header with a Bearer token is required', 'AUTH_REQUIRED');
  }
}

/** A read token on a method that changes something. */
export class ReadOnlyTokenError extends ForbiddenError {
  constructor() {
    super('This token has the read role and cannot change anything; use a write token', 'READ_ONLY_TOKEN');
  }
}

export class AdminApiDisabledError extends ForbiddenError {
  constructor() {
    super('The admin API is disabled: HUB_ADMIN_TOKEN is not set', 'ADMIN_DISABLED');
  }
}

export class AdminTokenRequiredError extends UnauthorizedError {
  constructor() {
    super('Authorization header with the admin Bearer token is required', 'AUTH_REQUIRED');
  }
}

/** A valid user token (or a user's console session) on the admin API: known, and not allowed. */
export class UserTokenOnAdminApiError extends ForbiddenError {
  constructor() {
    super('The admin API needs the admin token: a user token or a user session cannot use it', 'ADMIN_TOKEN_REQUIRED');
  }
}

export class BadAdminTokenError extends UnauthorizedError {
  constructor() {
    super('Invalid admin token', 'BAD_ADMIN_TOKEN');
  }
}

/** Spec 4.2: the organization cut this token off; it keeps working elsewhere. */
export class TokenRevokedByOrgError extends ForbiddenError {
  constructor(organization: string) {
    super(`This token was revoked by the organization ${organization} and cannot access it`, 'TOKEN_REVOKED_BY_ORG');
  }
}

export class NotAMemberError extends ForbiddenError {
  constructor(organization: string) {
    super(`You are not a member of the organization ${organization}`, 'NOT_A_MEMBER');
  }
}

/** A member whose role is no_access: the membership and nothing else (decision 0014). */
export class NoAccessRoleError extends ForbiddenError {
  constructor(organization: string) {
    super(
      `Your role in the organization ${organization} is no_access: it gives no access to the organization's resources`,
      'NO_ACCESS_ROLE',
    );
  }
}

export class AdminRoleRequiredError extends ForbiddenError {
  constructor(organization: string, role: string) {
    super(`This operation needs the admin role in ${organization}; you are ${role}`, 'ADMIN_ROLE_REQUIRED');
  }
}

export class PlanRequiredError extends ForbiddenError {
  constructor(organization: string, needed: string, current: string) {
    super(
      `This operation needs the ${needed} plan or higher; ${organization} is on the ${current} plan`,
      'PLAN_REQUIRED',
    );
  }
}

export class WriteTokenRequiredError extends ForbiddenError {
  constructor(organization: string) {
    super(
      `This operation on ${organization} needs a token with write permission; this one has the read role`,
      'WRITE_TOKEN_REQUIRED',
    );
  }
}

/** Too many failed authentications from one client address (per minute). */
export class TooManyAuthFailuresError extends HubError {
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      'TOO_MANY_AUTH_FAILURES',
      429,
      `Too many failed authentications from this address: at most ${limit} per 60 s; retry in ${retryAfterSeconds} s`,
    );
  }
}
