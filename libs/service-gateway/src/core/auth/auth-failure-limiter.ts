import { type FastifyReply } from 'fastify';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { TooManyAuthFailuresError } from './auth.errors';

/**
 * Failed authentications per client address (req.ip: the socket peer, or the first untrusted
 * X-Forwarded-For hop behind HUB_TRUSTED_PROXIES). Past the limit the address gets 429 before
 * any lookup, so guessing tokens (or the admin token) costs the guesser, not the database.
 * Tokens this gateway already verified keep working from that address.
 */
export class AuthFailureLimiter {
  private readonly limiter: RateLimiter;

  constructor(limitPerMinute: number) {
    this.limiter = new RateLimiter(limitPerMinute);
  }

  /** Throws 429 (with Retry-After) when the address used up its failures for this minute. */
  check(ip: string, reply: FastifyReply): void {
    const d = this.limiter.peek(ip);
    if (d.allowed) return;
    void reply.header('Retry-After', String(d.resetSeconds));
    throw new TooManyAuthFailuresError(d.limit, d.resetSeconds);
  }

  failed(ip: string): void {
    this.limiter.hit(ip);
  }
}
