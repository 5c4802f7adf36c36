import { HubError } from '@hub/contracts';

/** Too many failed authentications from one client address (per minute). */
export class TooManyAuthFailuresError extends HubError {
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      'TOO_MANY_AUTH_FAILURES',
      429,
      `Too many failed authentications from this address: at most ${limit} per 60 s; retry in ${retryAfterSeconds} s`,
    );
  }
}
