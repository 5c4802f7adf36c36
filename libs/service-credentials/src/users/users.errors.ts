import { NotFoundError } from '@hub/contracts';

export class UserNotFoundError extends NotFoundError {
  constructor(name: string) {
    super(`User ${name} not found`, 'USER_NOT_FOUND');
  }
}

