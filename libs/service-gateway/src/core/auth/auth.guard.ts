import { type CanActivate, type ExecutionContext, Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type AuthInfo, CredentialsRpc, Events, HubError, InvalidCredentialsError } from '@hub/contracts';
import { EventBus, RpcClient } from '@hub/messaging';
import { type GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';
import { contextOf } from '../http/request-context';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { ADMIN_ROUTE, PUBLIC_ROUTE } from './auth.decorators';
import {
  AdminApiDisabledError, AdminTokenRequiredError, BadAdminTokenError, BearerTokenRequiredError, ReadOnlyTokenError,
} from './auth.errors';
import { MembershipCache } from './membership-cache';
import { TokenCache } from './token-cache';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1] ?? null;
}

/**
 * Every route needs a bearer token unless marked @Public; /admin routes need HUB_ADMIN_TOKEN.
 * A read token cannot change anything.
 */
@Injectable()
export class AuthGuard implements CanActivate, OnModuleInit {
  private readonly adminHash: Buffer | null;
  private readonly failures: AuthFailureLimiter;

  constructor(
    private readonly reflector: Reflector,
    private readonly rpc: RpcClient,
    private readonly events: EventBus,
    private readonly cache: TokenCache,
    private readonly memberships: MembershipCache,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.adminHash = config.HUB_ADMIN_TOKEN ? createHash('sha256').update(config.HUB_ADMIN_TOKEN).digest() : null;
    this.failures = new AuthFailureLimiter(config.HUB_AUTH_FAILURE_LIMIT_PER_MINUTE);
  }

  onModuleInit(): void {
    // Every replica hears every change: plain subscriptions, not a shared consumer.
    this.events.listen(Events.TokenRevoked, (e) => this.cache.deleteTokenIds(e.tokenIds));
    this.events.listen(Events.MembershipChanged, (e) => e.userIds.forEach((id) => this.memberships.delete(id)));
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    if (this.reflector.getAllAndOverride<boolean>(ADMIN_ROUTE, targets)) return this.checkAdmin(req, reply);
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const token = bearer(req);
    if (!token) throw new BearerTokenRequiredError();
    req.hubAuth = await this.verify(token, req, reply);
    if (req.hubAuth.token.role === 'read' && !SAFE_METHODS.has(req.method)) throw new ReadOnlyTokenError();
    return true;
  }

  private async verify(token: string, req: FastifyRequest, reply: FastifyReply): Promise<AuthInfo> {
    const hash = sha256(token);
    const cached = this.cache.get(hash);
    if (cached) return cached;
    this.failures.check(req.ip, reply);
    // A reply read before a revocation committed may arrive after its eviction ran here; the
    // generation taken now tells, and such a reply serves this request only.
    const generation = this.cache.generation;
    try {
      if (token.length > 200) throw new InvalidCredentialsError();
      const info = await this.rpc.call(CredentialsRpc.VerifyToken, { token }, contextOf(req));
      this.cache.setUnlessEvicted(hash, info, generation);
      return info;
    } catch (e) {
      if (e instanceof HubError && e.status === 401) this.failures.failed(req.ip);
      throw e;
    }
  }

  private checkAdmin(req: FastifyRequest, reply: FastifyReply): boolean {
    const token = bearer(req);
    if (!this.adminHash) throw new AdminApiDisabledError();
    if (!token) throw new AdminTokenRequiredError();
    this.failures.check(req.ip, reply);
    const given = createHash('sha256').update(token).digest();
    if (!timingSafeEqual(given, this.adminHash)) {
      this.failures.failed(req.ip);
      throw new BadAdminTokenError();
    }
    req.hubAdmin = true;
    return true;
  }
}
