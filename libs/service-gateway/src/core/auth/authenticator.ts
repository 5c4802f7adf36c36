import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type AuthInfo, CredentialsRpc, Events, HubError, InvalidCredentialsError, tokenHash } from '@hub/contracts';
import { EventBus, RpcClient } from '@hub/messaging';
import { type GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';
import { contextOf } from '../http/request-context';
import { AuthFailureLimiter } from './auth-failure-limiter';
import {
  AdminApiDisabledError,
  AdminTokenRequiredError,
  BadAdminTokenError,
  BearerTokenRequiredError,
  ReadOnlyTokenError,
} from './auth.errors';
import { LiveAnswers } from './live-answers';
import { MembershipCache } from './membership-cache';
import { type RouteRules } from './route-rules';
import { TokenCache } from './token-cache';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1] ?? null;
}

/**
 * Who is calling: every route needs a bearer token unless marked @Public; /admin routes need
 * HUB_ADMIN_TOKEN. A read token cannot change anything. Synchronous when the token is cached.
 */
@Injectable()
export class Authenticator implements OnModuleInit {
  private readonly adminHash: Buffer | null;
  /** Failed user tokens and failed admin tokens per address, apart: guessing one never locks out the other. */
  private readonly failures: AuthFailureLimiter;
  private readonly adminFailures: AuthFailureLimiter;

  constructor(
    private readonly rpc: RpcClient,
    private readonly events: EventBus,
    private readonly cache: TokenCache,
    private readonly memberships: MembershipCache,
    private readonly liveAnswers: LiveAnswers,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.adminHash = config.HUB_ADMIN_TOKEN ? createHash('sha256').update(config.HUB_ADMIN_TOKEN).digest() : null;
    this.failures = new AuthFailureLimiter(config.HUB_AUTH_FAILURE_LIMIT_PER_MINUTE);
    this.adminFailures = new AuthFailureLimiter(config.HUB_AUTH_FAILURE_LIMIT_PER_MINUTE);
  }

  onModuleInit(): void {
    // Every replica hears every change: plain subscriptions, not a shared consumer.
    // Open streams and exports end with the access they were opened with (decision 0014).
    this.events.listen(Events.TokenRevoked, (e) => {
      this.cache.deleteTokenIds(e.tokenIds);
      this.liveAnswers.tokensRevoked(e.tokenIds, e.organizationId);
    });
    this.events.listen(Events.MembershipChanged, (e) => {
      e.userIds.forEach((id) => this.memberships.delete(id));
      this.liveAnswers.membershipChanged(e.organizationId, e.userIds);
    });
  }

  /** Sets req.hubAuth (or req.hubAdmin) or throws the 401/403 that says why not. */
  authenticate(req: FastifyRequest, reply: FastifyReply, rules: RouteRules): void | Promise<void> {
    if (rules.admin) return this.checkAdmin(req, reply);
    if (rules.public) return;
    const token = bearer(req);
    if (!token) throw new BearerTokenRequiredError();
    const hash = tokenHash(token);
    const cached = this.cache.get(hash);
    if (cached) return accept(req, cached);
    return this.verify(token.length, hash, req, reply).then((info) => accept(req, info));
  }

  private async verify(tokenLength: number, hash: string, req: FastifyRequest, reply: FastifyReply): Promise<AuthInfo> {
    this.failures.check(req.ip, reply);
    // A reply read before a revocation committed may arrive after its eviction ran here; the
    // generation taken now tells, and such a reply serves this request only.
    const generation = this.cache.generation;
    try {
      if (tokenLength > 200) throw new InvalidCredentialsError();
      // Only the hash crosses the bus (decision 0013): the credentials service looks tokens up by it.
      const info = await this.rpc.call(CredentialsRpc.VerifyToken, { tokenHash: hash }, contextOf(req));
      this.cache.setUnlessEvicted(hash, info, generation);
      return info;
    } catch (e) {
      if (e instanceof HubError && e.status === 401) this.failures.failed(req.ip);
      throw e;
    }
  }

  private checkAdmin(req: FastifyRequest, reply: FastifyReply): void {
    const token = bearer(req);
    if (!this.adminHash) throw new AdminApiDisabledError();
    if (!token) throw new AdminTokenRequiredError();
    this.adminFailures.check(req.ip, reply);
    const given = createHash('sha256').update(token).digest();
    if (!timingSafeEqual(given, this.adminHash)) {
      this.adminFailures.failed(req.ip);
      throw new BadAdminTokenError();
    }
    req.hubAdmin = true;
  }
}

function accept(req: FastifyRequest, info: AuthInfo): void {
  req.hubAuth = info;
  if (info.token.role === 'read' && !SAFE_METHODS.has(req.method)) throw new ReadOnlyTokenError();
}
