import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { RateLimits } from '../rate-limit/rate-limits';
import { Authenticator } from './authenticator';
import { OrgAccess } from './org-access';
import { type RouteRules, RouteRulesCache } from './route-rules';

/**
 * The one global guard: authentication, then the rate limit (users counted by id), then
 * organization access for @OrgScoped routes. One guard rather than three, and synchronous when
 * the caches answer: Nest awaits every guard, and the members read spent about 6 % of the
 * all-in-one hub's CPU in the three (decision 0300).
 */
@Injectable()
export class EdgeGuard implements CanActivate {
  private readonly rules: RouteRulesCache;

  constructor(
    reflector: Reflector,
    private readonly authenticator: Authenticator,
    private readonly rateLimits: RateLimits,
    private readonly orgAccess: OrgAccess,
  ) {
    this.rules = new RouteRulesCache(reflector);
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    return this.admit(http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), this.rules.of(context));
  }

  /** The guard's decision for one request: true, false (a 403), or a promise of either. */
  admit(req: FastifyRequest, reply: FastifyReply, rules: RouteRules): boolean | Promise<boolean> {
    const authenticated = this.authenticator.authenticate(req, reply, rules);
    if (authenticated) return authenticated.then(() => this.afterAuthentication(req, reply, rules));
    return this.afterAuthentication(req, reply, rules);
  }

  private afterAuthentication(req: FastifyRequest, reply: FastifyReply, rules: RouteRules): boolean | Promise<boolean> {
    this.rateLimits.hit(req, reply, rules.strictRateLimit);
    if (!rules.org) return true;
    if (!req.hubAuth) return false;
    const admitted = this.orgAccess.check(req, req.hubAuth, rules.org);
    return admitted ? admitted.then(() => true) : true;
  }
}
