import { BadRequestError, ConflictError, HubError, NotFoundError } from '@hub/contracts';

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
    super(
      `PATCH path ${JSON.stringify(path).slice(0, 200)} is not an attribute of this resource the hub supports`,
      'SCIM_INVALID_PATH',
    );
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

/** RFC 7644 3.14: If-Match names another version than the current one; nothing was applied. */
export class ScimPreconditionFailedError extends HubError {
  constructor(kind: string, current: string) {
    super(
      'SCIM_PRECONDITION_FAILED',
      412,
      `If-Match does not name the current version of this ${kind} (${current}); nothing was changed`,
    );
  }
}

/** RFC 7644 3.11: /Me is not supported (a token names a hub user, not a provisioned one). */
export class ScimNotImplementedError extends HubError {
  constructor(detail: string) {
    super('SCIM_NOT_IMPLEMENTED', 501, detail);
  }
}
