import { ConflictError, NotFoundError } from '@hub/contracts';

export class MemberNotFoundError extends NotFoundError {
  constructor(organization: string, userId: string) {
    super(`User ${userId} is not a member of organization ${organization}`, 'MEMBER_NOT_FOUND');
  }
}

export class LastAdminError extends ConflictError {
  constructor(organization: string) {
    super(`Organization ${organization} would have no admin left: make another member admin first`, 'LAST_ADMIN');
  }
}
