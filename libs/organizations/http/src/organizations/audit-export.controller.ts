import { Readable } from 'node:stream';
import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type RequestContext } from '@hub/contracts';
import {
  AUDIT_EXPORT_MAX,
  AuditEventsQueryDto,
  AuditExportQueryDto,
  auditCursorText,
  type AuditFilter,
  AuditLogEventView,
  type AuditPage,
  AuditRpc,
  type OrganizationAccess,
  parseAuditCursor,
  parseAuditQuery,
} from '@hub/organizations-contract';
import { type AuthInfo } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import {
  ApiErrorResponse,
  Ctx,
  CurrentAuth,
  CurrentOrg,
  LiveAnswers,
  MembershipDirectory,
  OrgNameParam,
  nextLink,
  OrgScoped,
} from '@hub/service-gateway';

/** Events per RPC page (about 400 kB of JSON for typical events); the service also ends a page at AUDIT_PAGE_BYTES (NATS takes 1 MB a message). */
const PAGE = 1000;

/** Audit log export (spec 2.9, 4.4): Team plan or higher, org admins only, streamed newest first. */
@ApiTags('orgs')
@ApiBearerAuth()
@Controller('api/organizations/:name/audit-log')
export class AuditExportController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly live: LiveAnswers,
    private readonly directory: MembershipDirectory,
  ) {}

  @Get('export')
  @OrgScoped({ role: 'admin', minPlan: 'team' })
  @ApiOperation({
    summary:
      'The newest 100,000 audit events (at most) matching q, as a JSON file download (org admins, Team plan or higher)',
  })
  @ApiOkResponse({
    description: 'The events, newest first',
    type: AuditLogEventView,
    isArray: true,
    headers: {
      'Content-Disposition': {
        description: 'attachment; filename="<org>-audit-log-<date>.json"',
        schema: { type: 'string' },
      },
    },
  })
  @ApiErrorResponse(400, 'A malformed q term, an unknown field or event type')
  @ApiErrorResponse(403, 'Not an admin of the organization, or the plan has no audit log export')
  @ApiErrorResponse(404, 'No such organization')
  async export(
    @Param() _p: OrgNameParam,
    @Query() query: AuditExportQueryDto,
    @CurrentOrg() access: OrganizationAccess,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const filter = parseAuditQuery(query.q);
    const org = access.organization;
    // The first page is read before the answer starts, so that a failing service is a clean error status.
    const first = await this.rpc.call(AuditRpc.Page, { organizationId: org.id, filter, limit: PAGE }, ctx);
    const date = new Date().toISOString().slice(0, 10);
    // A large export read slowly stays open for long: it is cut (connection closed, the JSON left
    // incomplete on purpose) when the token is revoked or the caller is no longer an admin (decision 0014).
    this.live.add(
      reply,
      {
        tokenId: auth.token.id,
        userId: auth.user.id,
        organizationId: org.id,
        stillAllowed: async () => (await this.directory.accessTo(org.name, auth.user.id, ctx)).role === 'admin',
      },
      () => reply.raw.destroy(),
    );
    await reply
      .header('content-disposition', `attachment; filename="${org.name}-audit-log-${date}.json"`)
      .type('application/json; charset=utf-8')
      // Bytes, not objects: the stream then buffers a page or so (its highWaterMark), not 16 pages, when the client reads slowly.
      .send(Readable.from(this.pages(org.id, filter, first, ctx), { objectMode: false }));
  }

  @Get('events')
  @OrgScoped({ role: 'admin', minPlan: 'team' })
  @ApiOperation({
    summary:
      'One page of the audit log, newest first, matching q; the next page in the Link header (org admins, Team plan or higher; our extension, decision 0423)',
  })
  @ApiOkResponse({ description: 'The events, newest first', type: AuditLogEventView, isArray: true })
  @ApiErrorResponse(400, 'A malformed q term, limit or cursor')
  @ApiErrorResponse(403, 'Not an admin of the organization, or the plan has no audit log')
  @ApiErrorResponse(404, 'No such organization')
  async events(
    @Param() _p: OrgNameParam,
    @Query() query: AuditEventsQueryDto,
    @CurrentOrg() access: OrganizationAccess,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const filter = parseAuditQuery(query.q);
    const page = await this.rpc.call(
      AuditRpc.Page,
      {
        organizationId: access.organization.id,
        filter,
        limit: query.limit ?? 50,
        ...(query.cursor ? { after: parseAuditCursor(query.cursor) } : {}),
      },
      ctx,
    );
    if (page.head.last) void reply.header('link', nextLink(req, auditCursorText(page.head.last)));
    // The events' JSON as the service stored it, never parsed on the way (as the export).
    const tail = page.head.count > 0 ? page.tail : '';
    await reply
      .type('application/json; charset=utf-8')
      .send(Buffer.concat([Buffer.from('['), typeof tail === 'string' ? Buffer.from(tail) : tail, Buffer.from(']')]));
  }

  /**
   * Page after page from the service's cursor: the gateway holds at most two pages, whatever the
   * total. The next page is asked for before this one is handed to the response, so the service
   * reads it while this one is sent.
   */
  private async *pages(
    organizationId: string,
    filter: AuditFilter,
    first: AuditPage,
    ctx: RequestContext,
  ): AsyncGenerator<string | Uint8Array> {
    yield '[';
    let page = first;
    let sent = 0;
    for (;;) {
      const { count, last } = page.head;
      const separator = sent > 0 && count > 0;
      sent += count;
      const limit = Math.min(PAGE, AUDIT_EXPORT_MAX - sent);
      const next =
        last && limit > 0
          ? this.rpc.call(AuditRpc.Page, { organizationId, filter, after: last, limit }, ctx)
          : undefined;
      // Awaited below; if the client goes away first, its failure must not be an unhandled rejection.
      next?.catch(() => undefined);
      if (separator) yield ',';
      // The events' JSON as the service sent it: bytes over NATS, text in-process, written as they are.
      if (count > 0) yield page.tail;
      if (!next) break;
      page = await next;
    }
    yield ']';
  }
}
