import { BadRequestError, NotFoundError } from '@hub/contracts';

export class UserNotFoundError extends NotFoundError {
  constructor(name: string) {
    super(`User ${name} not found`, 'USER_NOT_FOUND');
  }
}


export class EmailRequiredError extends BadRequestError {
  constructor(name: string) {
    super(`No user named ${name} exists: emails must give an address to create one`, 'SCIM_INVALID_VALUE');
  }
}
