import { Inject, Injectable } from '@nestjs/common';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.di';
import { TooManyRequestsError } from './rate-limit.errors';
import { RateLimiter } from './rate-limiter';

/**
 * Sets RateLimit / RateLimit-Policy (IETF draft) on every limited response; 429 past the limit.
 * Runs after authentication (EdgeGuard), so users are counted by id and anonymous callers by address.
 */
@Injectable()
export class RateLimits {
  private readonly general: RateLimiter;
  private readonly strict: RateLimiter;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.general = new RateLimiter(config.HUB_RATE_LIMIT_PER_MINUTE);
    this.strict = new RateLimiter(config.HUB_REVOKE_RATE_LIMIT_PER_MINUTE);
  }

  hit(req: FastifyRequest, reply: FastifyReply, strict: boolean): void {
    const limiter = strict ? this.strict : this.general;
    const key = strict || !req.hubAuth ? `ip:${req.ip}` : `user:${req.hubAuth.user.id}`;
    const d = limiter.hit(key);
    void reply.header('RateLimit', `limit=${d.limit}, remaining=${d.remaining}, reset=${d.resetSeconds}`);
    void reply.header('RateLimit-Policy', `${d.limit};w=${d.windowSeconds}`);
    if (!d.allowed) {
      void reply.header('Retry-After', String(d.resetSeconds));
      throw new TooManyRequestsError(d.limit, d.windowSeconds, d.resetSeconds);
    }
  }
}
