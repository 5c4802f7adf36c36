import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { ForbiddenError } from '@hub/contracts';
import { CredentialsRpc, type SessionInfo, tokenHash } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import {
  ApiErrorResponse,
  Authenticator,
  checkCsrf,
  clearSessionCookie,
  contextOf,
  csrfTokenFor,
  GATEWAY_CONFIG,
  type GatewayConfig,
  newSessionId,
  Public,
  SessionEndedError,
  sessionHash,
  sessionIdOf,
  setSessionCookie,
  StrictRateLimit,
} from '@hub/service-gateway';
import { ConsoleSessionView, ConsoleSignInDto } from './console-session.views';

class CrossSiteSignInError extends ForbiddenError {
  constructor() {
    super('Sign-in is only accepted from the console page of this hub (same origin, JSON body)', 'CROSS_SITE_SIGN_IN');
  }
}

/**
 * The web console's session (decision 0800): sign in with a token, see the session, sign out.
 * The cookie then stands for the token on this origin, no more than it.
 */
@ApiTags('console')
@Controller('api/console/session')
export class ConsoleSessionController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly auth: Authenticator,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post()
  @Public()
  @StrictRateLimit()
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in to the console: verifies the token and sets the HttpOnly session cookie' })
  @ApiOkResponse({ description: 'The new session', type: ConsoleSessionView })
  @ApiErrorResponse(401, 'The token is not valid')
  @ApiErrorResponse(403, 'A cross-site request, or a body that is not JSON')
  async signIn(
    @Body() body: ConsoleSignInDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionView> {
    // SameSite=Strict protects the cookie; this keeps another site from signing a browser in as someone else.
    const site = req.headers['sec-fetch-site'];
    const json = String(req.headers['content-type'] ?? '').startsWith('application/json');
    if (!json || (site !== undefined && site !== 'same-origin' && site !== 'none')) throw new CrossSiteSignInError();
    const sessionId = newSessionId();
    const ttlSeconds = this.config.HUB_CONSOLE_SESSION_HOURS * 3600;
    // A wrong guess at the admin token is then a wrong user token: counted by the failure limit.
    const made = this.auth.isAdminToken(body.token)
      ? { adminFingerprint: this.auth.adminFingerprint ?? undefined }
      : { tokenHash: await this.userTokenHash(body.token, req, reply) };
    const session = await this.rpc.call(
      CredentialsRpc.CreateSession,
      { sessionHash: sessionHash(sessionId), ttlSeconds, ...made },
      contextOf(req),
    );
    setSessionCookie(req, reply, sessionId, ttlSeconds, this.config.publicUrl);
    // Signing in again replaces the browser's session: the one it had ends now rather than at its expiry.
    const previous = sessionIdOf(req);
    if (previous)
      await this.rpc.call(CredentialsRpc.EndSession, { sessionHash: sessionHash(previous) }, contextOf(req));
    return view(session, sessionId);
  }

  @Get()
  @Public()
  @ApiOperation({ summary: "The console session the cookie names, with the CSRF token for this session's changes" })
  @ApiOkResponse({ description: 'The session', type: ConsoleSessionView })
  @ApiErrorResponse(401, 'No session, or it ended (signed out, expired, token revoked)')
  async current(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionView> {
    const sessionId = sessionIdOf(req);
    if (!sessionId) throw new SessionEndedError();
    return view(await this.live(sessionId, req, reply), sessionId);
  }

  @Delete()
  @Public()
  @HttpCode(204)
  @ApiOperation({ summary: 'Sign out: ends the session at once, on every gateway replica' })
  @ApiResponse({ status: 204, description: 'Signed out (also when the session had already ended)' })
  @ApiErrorResponse(403, 'No X-CSRF-Token of this session')
  async signOut(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const sessionId = sessionIdOf(req);
    if (sessionId) {
      checkCsrf(req, sessionId);
      await this.rpc.call(CredentialsRpc.EndSession, { sessionHash: sessionHash(sessionId) }, contextOf(req));
    }
    clearSessionCookie(req, reply, this.config.publicUrl);
  }

  /** An operator session needs the admin token as it is now. */
  private async live(sessionId: string, req: FastifyRequest, reply: FastifyReply): Promise<SessionInfo> {
    const session = await this.auth.session(sessionId, req, reply);
    if (session.adminFingerprint !== null && session.adminFingerprint !== this.auth.adminFingerprint)
      throw new SessionEndedError();
    return session;
  }

  private async userTokenHash(token: string, req: FastifyRequest, reply: FastifyReply): Promise<string> {
    await this.auth.tokenInfo(token, req, reply);
    return tokenHash(token);
  }
}

function view(session: SessionInfo, sessionId: string): ConsoleSessionView {
  const user = session.auth
    ? {
        id: session.auth.user.id,
        name: session.auth.user.name,
        fullname: session.auth.user.fullname,
        tokenRole: session.auth.token.role,
      }
    : undefined;
  return { kind: user ? 'user' : 'operator', user, csrfToken: csrfTokenFor(sessionId), expiresAt: session.expiresAt };
}
