import { ConflictError, NotFoundError } from '@hub/contracts';

export class OrganizationNotFoundError extends NotFoundError {
  constructor(name: string) {
    super(`Organization ${name} not found`, 'ORGANIZATION_NOT_FOUND');
  }
}

export class OrganizationExistsError extends ConflictError {
  constructor(name: string) {
    super(`An organization named ${name} already exists`, 'ORGANIZATION_EXISTS');
  }
}
