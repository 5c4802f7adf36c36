import { type CanActivate, type ExecutionContext, Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import { type FastifyRequest } from 'fastify';
import { type AuthInfo, CredentialsRpc, Events, InvalidCredentialsError } from '@hub/contracts';
import { EventBus, RpcClient } from '@hub/messaging';
import { type GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';
import { contextOf } from '../http/request-context';
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

  constructor(
    private readonly reflector: Reflector,
    private readonly rpc: RpcClient,
    private readonly events: EventBus,
    private readonly cache: TokenCache,
    private readonly memberships: MembershipCache,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.adminHash = config.HUB_ADMIN_TOKEN ? createHash('sha256').update(config.HUB_ADMIN_TOKEN).digest() : null;
  }

  onModuleInit(): void {
    // Every replica hears every change: plain subscriptions, not a shared consumer.
    this.events.listen(Events.TokenRevoked, (e) => this.cache.deleteTokenIds(e.tokenIds));
    this.events.listen(Events.MembershipChanged, (e) => e.userIds.forEach((id) => this.memberships.delete(id)));
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    if (this.reflector.getAllAndOverride<boolean>(ADMIN_ROUTE, targets)) return this.checkAdmin(req);
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const token = bearer(req);
    if (!token) throw new BearerTokenRequiredError();
    req.hubAuth = await this.verify(token, req);
    if (req.hubAuth.token.role === 'read' && !SAFE_METHODS.has(req.method)) throw new ReadOnlyTokenError();
    return true;
  }

  private async verify(token: string, req: FastifyRequest): Promise<AuthInfo> {
    const hash = sha256(token);
    const cached = this.cache.get(hash);
    if (cached) return cached;
    if (token.length > 200) throw new InvalidCredentialsError();
    const info = await this.rpc.call(CredentialsRpc.VerifyToken, { token }, contextOf(req));
    this.cache.set(hash, info);
    return info;
  }

  private checkAdmin(req: FastifyRequest): boolean {
    const token = bearer(req);
    if (!this.adminHash) throw new AdminApiDisabledError();
    if (!token) throw new AdminTokenRequiredError();
    const given = createHash('sha256').update(token).digest();
    if (!timingSafeEqual(given, this.adminHash)) throw new BadAdminTokenError();
    req.hubAdmin = true;
    return true;
  }
}
