import { ConflictError } from '@hub/contracts';

export class NameTakenError extends ConflictError {
  constructor(name: string) {
    super(`A user or organization named ${name} already exists (names are case-insensitive)`, 'NAME_TAKEN');
  }
}

export class EmailTakenError extends ConflictError {
  constructor(email: string) {
    super(`A user with the e-mail ${email} already exists`, 'EMAIL_TAKEN');
  }
}
