import { ConflictError, NotFoundError } from '@hub/contracts';

export class UserNotFoundError extends NotFoundError {
  constructor(name: string) {
    super(`User ${name} not found`, 'USER_NOT_FOUND');
  }
}

/** User and organization names share one namespace; e-mails are unique too. */
export class UserExistsError extends ConflictError {
  constructor(name: string) {
    super(`A user named ${name} already exists`, 'USER_EXISTS');
  }
}
