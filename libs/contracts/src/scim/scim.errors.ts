import { BadRequestError, ConflictError, NotFoundError } from '../errors';

export class ScimInvalidFilterError extends BadRequestError {
  constructor(detail: string) {
    super(detail, 'SCIM_INVALID_FILTER');
  }
}

export class ScimInvalidValueError extends BadRequestError {
  constructor(detail: string) {
    super(detail, 'SCIM_INVALID_VALUE');
  }
}

export class ScimInvalidPathError extends BadRequestError {
  constructor(path: string) {
    super(`PATCH path ${JSON.stringify(path).slice(0, 200)} is not an attribute of this resource the hub supports`, 'SCIM_INVALID_PATH');
  }
}

export class ScimNoTargetError extends BadRequestError {
  constructor(detail: string) {
    super(detail, 'SCIM_NO_TARGET');
  }
}

export class ScimMutabilityError extends BadRequestError {
  constructor(detail: string) {
    super(detail, 'SCIM_MUTABILITY');
  }
}

export class ScimUniquenessError extends ConflictError {
  constructor(detail: string) {
    super(detail, 'SCIM_UNIQUENESS');
  }
}

export class ScimResourceNotFoundError extends NotFoundError {
  constructor(kind: string, id: string) {
    super(`${kind} ${id} not found`, `SCIM_${kind.toUpperCase()}_NOT_FOUND`);
  }
}
