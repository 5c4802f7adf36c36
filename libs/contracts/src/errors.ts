/**
 * The one error shape that crosses the bus: `{code, status, message}`. The gateway turns it into
 * `{"error": message}` with that HTTP status. Codes are stable; messages are for people.
 */
export interface ErrorEnvelope {
  code: string;
  status: number;
  message: string;
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['code'] === 'string' && typeof v['status'] === 'number' && typeof v['message'] === 'string';
}

export class HubError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  toEnvelope(): ErrorEnvelope {
    return { code: this.code, status: this.status, message: this.message };
  }

  static fromEnvelope(e: ErrorEnvelope): HubError {
    return new HubError(e.code, e.status, e.message);
  }
}

export class BadRequestError extends HubError {
  constructor(message: string, code = 'BAD_REQUEST') {
    super(code, 400, message);
  }
}
export class UnauthorizedError extends HubError {
  constructor(message = 'Invalid credentials in Authorization header', code = 'UNAUTHORIZED') {
    super(code, 401, message);
  }
}
export class ForbiddenError extends HubError {
  constructor(message: string, code = 'FORBIDDEN') {
    super(code, 403, message);
  }
}
export class NotFoundError extends HubError {
  constructor(message: string, code = 'NOT_FOUND') {
    super(code, 404, message);
  }
}
export class ConflictError extends HubError {
  constructor(message: string, code = 'CONFLICT') {
    super(code, 409, message);
  }
}
export class ServiceUnavailableError extends HubError {
  constructor(message: string, code = 'SERVICE_UNAVAILABLE') {
    super(code, 503, message);
  }
}
export class TimeoutError extends HubError {
  constructor(message: string, code = 'UPSTREAM_TIMEOUT') {
    super(code, 504, message);
  }
}
