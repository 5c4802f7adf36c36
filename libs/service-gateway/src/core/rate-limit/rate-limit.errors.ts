import { HubError } from '@hub/contracts';

/** Past the per-minute budget; the guard has already set RateLimit and Retry-After. */
export class TooManyRequestsError extends HubError {
  constructor(limit: number, windowSeconds: number, resetSeconds: number) {
    super(
      'RATE_LIMITED',
      429,
      `Too many requests: at most ${limit} per ${windowSeconds} s; retry in ${resetSeconds} s`,
    );
  }
}
