import { BadRequestError, NotFoundError } from '@hub/contracts';

export class UserNotFoundError extends NotFoundError {
  constructor(name: string) {
    super(`User ${name} not found`, 'USER_NOT_FOUND');
  }
}

export class EmailRequiredError extends BadRequestError {
  constructor(userName: string) {
    super(
      `userName ${JSON.stringify(userName.slice(0, 100))} is not an e-mail address: emails must give one for the new account`,
      'SCIM_INVALID_VALUE',
    );
  }
}
