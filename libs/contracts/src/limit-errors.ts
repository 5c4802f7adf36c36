import { ConflictError } from './errors';

/**
 * A cap on how many of a thing one user or namespace may hold (decision 0015). 409, not 429: the
 * request is refused for the state it meets, not for its rate, so retrying the same request later
 * does not help until something is deleted (or, for active jobs, ends); and not 400, since the same
 * body is accepted once there is room. The message names the variable and its value.
 */
export class LimitReachedError extends ConflictError {
  constructor(held: string, variable: string, limit: number, remedy: string) {
    super(`${held}: the limit is ${limit} (${variable}); ${remedy}`, 'LIMIT_REACHED');
  }
}
