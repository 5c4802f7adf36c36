import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { HubError, TOKEN_PATTERN } from '@hub/contracts';
import { OrganizationsEvents } from '@hub/organizations-contract';
import {
  type AuthInfo,
  CredentialsRpc,
  InvalidCredentialsError,
  type SessionInfo,
  tokenHash,
  CredentialsEvents,
} from '@hub/credentials-contract';
import { EventBus, RpcClient } from '@hub/messaging';
import { type GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.di';
import { contextOf } from '../http/request-context';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { adminFingerprint, checkCsrf, SessionEndedError, sessionHash, sessionIdOf } from './console-session';
import {
  AdminApiDisabledError,
  AdminTokenRequiredError,
  BadAdminTokenError,
  BearerTokenRequiredError,
  ReadOnlyTokenError,
  UserTokenOnAdminApiError,
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
  /** What operator sessions store of the admin token (decision 0800). */
  readonly adminFingerprint: string | null;
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
    this.adminFingerprint = config.HUB_ADMIN_TOKEN ? adminFingerprint(config.HUB_ADMIN_TOKEN) : null;
    this.failures = new AuthFailureLimiter(config.HUB_AUTH_FAILURE_LIMIT_PER_MINUTE);
    this.adminFailures = new AuthFailureLimiter(config.HUB_AUTH_FAILURE_LIMIT_PER_MINUTE);
  }

  onModuleInit(): void {
    // Every replica hears every change: plain subscriptions, not a shared consumer.
    // Open streams and exports end with the access they were opened with (decision 0014).
    this.events.listen(CredentialsEvents.TokenRevoked, (e) => {
      this.cache.deleteTokenIds(e.tokenIds);
      this.liveAnswers.tokensRevoked(e.tokenIds, e.organizationId);
    });
    this.events.listen(OrganizationsEvents.MembershipChanged, (e) => {
      e.userIds.forEach((id) => this.memberships.delete(id));
      this.liveAnswers.membershipChanged(e.organizationId, e.userIds);
    });
  }

  /** Sets req.hubAuth (or req.hubAdmin) or throws the 401/403 that says why not. */
  authenticate(req: FastifyRequest, reply: FastifyReply, rules: RouteRules): void | Promise<void> {
    if (rules.admin) return this.checkAdmin(req, reply);
    if (rules.public) return;
    const token = bearer(req);
    if (!token) {
      // No bearer token: the console's session cookie, if any (decision 0800).
      const sessionId = sessionIdOf(req);
      if (sessionId) return this.fromSession(sessionId, req, reply, false);
      throw new BearerTokenRequiredError();
    }
    return this.verifyUserToken(token, req, reply);
  }

  /** A bearer user token: req.hubAuth, or the 401/403 that says why not. */
  private verifyUserToken(token: string, req: FastifyRequest, reply: FastifyReply): void | Promise<void> {
    const hash = tokenHash(token);
    const cached = this.cache.get(hash);
    if (cached) return accept(req, cached);
    return this.verify(token.length, hash, req, reply).then((info) => accept(req, info));
  }

  /** What a user token verifies to, without admitting a request (the console's sign-in). */
  async tokenInfo(token: string, req: FastifyRequest, reply: FastifyReply): Promise<AuthInfo> {
    const hash = tokenHash(token);
    return this.cache.get(hash) ?? this.verify(token.length, hash, req, reply);
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

  private checkAdmin(req: FastifyRequest, reply: FastifyReply): void | Promise<void> {
    const token = bearer(req);
    if (!this.adminHash) throw new AdminApiDisabledError();
    if (!token) {
      const sessionId = sessionIdOf(req);
      if (sessionId) return this.fromSession(sessionId, req, reply, true);
      throw new AdminTokenRequiredError();
    }
    return this.checkAdminToken(token, req, reply);
  }

  /** Whether this is the admin token (the console's sign-in; counts nothing: a wrong one is tried as a user token). */
  isAdminToken(token: string): boolean {
    if (!this.adminHash) return false;
    return timingSafeEqual(createHash('sha256').update(token).digest(), this.adminHash);
  }

  /** The bearer admin token: req.hubAdmin, or the 401/403. */
  private checkAdminToken(token: string, req: FastifyRequest, reply: FastifyReply): void | Promise<void> {
    if (!this.adminHash) throw new AdminApiDisabledError();
    this.adminFailures.check(req.ip, reply);
    const given = createHash('sha256').update(token).digest();
    if (timingSafeEqual(given, this.adminHash)) {
      req.hubAdmin = true;
      return;
    }
    // Shaped like a user token: a live one is a known caller without the right (403), not a guess.
    if (TOKEN_PATTERN.test(token)) return this.refuseUserToken(token, req, reply);
    this.adminFailures.failed(req.ip);
    throw new BadAdminTokenError();
  }

  /** 403 for a live user token on the admin API; an unknown or revoked one is a wrong admin token (401, counted). */
  private async refuseUserToken(token: string, req: FastifyRequest, reply: FastifyReply): Promise<never> {
    try {
      await this.tokenInfo(token, req, reply);
    } catch (e) {
      if (e instanceof HubError && e.status === 401) {
        this.adminFailures.failed(req.ip);
        throw new BadAdminTokenError();
      }
      throw e;
    }
    throw new UserTokenOnAdminApiError();
  }

  /**
   * A console session does what its token (or the admin token) does, no more: a user session never
   * reaches an admin route, an operator session never a user route, a read token's session changes
   * nothing, and every change carries the session's CSRF token.
   */
  private async fromSession(
    sessionId: string,
    req: FastifyRequest,
    reply: FastifyReply,
    admin: boolean,
  ): Promise<void> {
    checkCsrf(req, sessionId);
    const session = await this.session(sessionId, req, reply);
    if (admin) {
      // A user's session is a known caller without the right (403, as its token gets); an operator
      // session made from another admin token is no session for this one (401).
      if (session.auth) throw new UserTokenOnAdminApiError();
      if (session.adminFingerprint === null || session.adminFingerprint !== this.adminFingerprint)
        throw new AdminTokenRequiredError();
      req.hubAdmin = true;
      return;
    }
    if (!session.auth) throw new BearerTokenRequiredError();
    accept(req, session.auth);
  }

  /** The live session of this id (one RPC: sign-out and revocation take effect on the next request). */
  async session(sessionId: string, req: FastifyRequest, reply: FastifyReply): Promise<SessionInfo> {
    this.failures.check(req.ip, reply);
    try {
      return await this.rpc.call(CredentialsRpc.VerifySession, { sessionHash: sessionHash(sessionId) }, contextOf(req));
    } catch (e) {
      if (e instanceof HubError && e.status === 401) {
        this.failures.failed(req.ip);
        throw new SessionEndedError();
      }
      throw e;
    }
  }
}

function accept(req: FastifyRequest, info: AuthInfo): void {
  req.hubAuth = info;
  if (info.token.role === 'read' && !SAFE_METHODS.has(req.method)) throw new ReadOnlyTokenError();
}
