import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { EmptyAnswer, type RequestContext } from '@hub/contracts';
import {
  LOG_FILTER_KEYS,
  RecoverBodyDto,
  RecoveryView,
  WebhookHeadersAnswer,
  WebhookHeadersBodyDto,
  type WebhookLogFilterDto,
  ReplayAnswer,
  WebhookAnswer,
  WebhookBodyDto,
  WebhookDeliveriesQuery,
  WebhookDeliveryView,
  WebhookLogView,
  WebhooksRpc,
  WebhookView,
} from '@hub/webhooks-contract';
import { type AuthInfo } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { ApiErrorResponse, Ctx, CurrentAuth, GATEWAY_CONFIG, type GatewayConfig, nextLink } from '@hub/service-gateway';
import {
  WebhookActionParam,
  WebhookIdParam,
  WebhookLogParam,
  WebhookLogsQuery,
  WebhookRecoveryParam,
} from './webhook.params';

/**
 * The caller as the webhooks' owner. Changing webhooks needs a write token: the authenticator
 * refuses a read token on every method but GET/HEAD/OPTIONS before a controller runs.
 */
function owner(auth: AuthInfo): { ownerId: string; ownerName: string } {
  return { ownerId: auth.user.id, ownerName: auth.user.name };
}

/** Spec 4.5: a user's webhooks. Another user's webhook is a 404, the same as a missing one. */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('api/settings/webhooks')
export class WebhooksController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: "The caller's webhooks" })
  @ApiOkResponse({ description: 'Bare array (spec 4.5)', type: WebhookView, isArray: true })
  list(@CurrentAuth() auth: AuthInfo, @Ctx() ctx: RequestContext): Promise<WebhookView[]> {
    return this.rpc.call(WebhooksRpc.List, owner(auth), ctx);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a webhook (exactly one of url, job, jobSourceId)' })
  @ApiBody({ type: WebhookBodyDto })
  @ApiOkResponse({ description: 'The webhook', type: WebhookAnswer })
  @ApiErrorResponse(400, 'A field breaks a rule of spec 4.6; the message names it')
  @ApiErrorResponse(403, 'A read token')
  @ApiErrorResponse(404, 'jobSourceId names no job the caller can read (decision 0501)')
  @ApiErrorResponse(409, 'The caller has HUB_WEBHOOKS_MAX_PER_USER webhooks already; the message names the limit')
  async create(
    @Body() body: WebhookBodyDto,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookAnswer> {
    return { webhook: await this.rpc.call(WebhooksRpc.Create, { ...owner(auth), body }, ctx) };
  }

  @Get(':webhookId')
  @ApiOperation({ summary: 'One webhook' })
  @ApiOkResponse({ description: 'The webhook', type: WebhookAnswer })
  @ApiErrorResponse(404, 'No such webhook of the caller')
  async get(
    @Param() p: WebhookIdParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookAnswer> {
    return { webhook: await this.rpc.call(WebhooksRpc.Get, { ...owner(auth), id: p.webhookId }, ctx) };
  }

  @Post(':webhookId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Replace a webhook (null is absent; an empty watched keeps the current list)' })
  @ApiBody({ type: WebhookBodyDto })
  @ApiOkResponse({ description: 'The webhook', type: WebhookAnswer })
  @ApiErrorResponse(400, 'A field breaks a rule of spec 4.6; the message names it')
  @ApiErrorResponse(403, 'A read token')
  @ApiErrorResponse(404, 'No such webhook of the caller, or a jobSourceId naming no job the caller can read')
  async update(
    @Param() p: WebhookIdParam,
    @Body() body: WebhookBodyDto,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookAnswer> {
    return { webhook: await this.rpc.call(WebhooksRpc.Update, { ...owner(auth), id: p.webhookId, body }, ctx) };
  }

  @Delete(':webhookId')
  @ApiOperation({ summary: 'Delete a webhook' })
  @ApiOkResponse({ description: 'Empty object', type: EmptyAnswer })
  @ApiErrorResponse(403, 'A read token')
  @ApiErrorResponse(404, 'No such webhook of the caller')
  async remove(
    @Param() p: WebhookIdParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<Record<string, never>> {
    await this.rpc.call(WebhooksRpc.Delete, { ...owner(auth), id: p.webhookId }, ctx);
    return {};
  }

  @Get(':webhookId/logs')
  @ApiOperation({
    summary:
      'Delivery log, newest first (our extension), searchable by status, httpStatus, event, repo, since/until and q; next page in the Link header',
  })
  @ApiOkResponse({ description: 'Attempts', type: WebhookLogView, isArray: true })
  @ApiErrorResponse(400, 'A filter is malformed; the message names it')
  @ApiErrorResponse(404, 'No such webhook of the caller')
  async logs(
    @Param() p: WebhookIdParam,
    @Query() q: WebhookLogsQuery,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookLogView[]> {
    const limit = q.limit ?? 20;
    const filter: WebhookLogFilterDto = {};
    for (const key of LOG_FILTER_KEYS) {
      if (q[key] === undefined) continue;
      Object.assign(filter, { [key]: q[key] });
    }
    const page = await this.rpc.call(
      WebhooksRpc.ListLogs,
      { ...owner(auth), id: p.webhookId, limit, filter, ...(q.cursor ? { cursor: q.cursor } : {}) },
      ctx,
    );
    if (page.next) void reply.header('link', nextLink(reply.request, page.next));
    return page.items;
  }

  @Get(':webhookId/deliveries')
  @ApiOperation({
    summary:
      'Deliveries (our extension, decision 0804): one per event, newest first or those named by ids, each with its state, attempts, maxAttempts and nextAttemptAt',
  })
  @ApiOkResponse({ description: 'Deliveries', type: WebhookDeliveryView, isArray: true })
  @ApiErrorResponse(400, 'ids or limit is malformed; the message names it')
  @ApiErrorResponse(404, 'No such webhook of the caller')
  deliveries(
    @Param() p: WebhookIdParam,
    @Query() q: WebhookDeliveriesQuery,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookDeliveryView[]> {
    return this.rpc.call(
      WebhooksRpc.ListDeliveries,
      { ...owner(auth), id: p.webhookId, limit: q.limit ?? (q.ids?.length || 20), ...(q.ids ? { ids: q.ids } : {}) },
      ctx,
    );
  }

  @Get(':webhookId/headers')
  @ApiOperation({
    summary: 'Custom headers sent with every delivery (our extension): names and hints, never the values',
  })
  @ApiOkResponse({ description: 'The headers', type: WebhookHeadersAnswer })
  @ApiErrorResponse(404, 'No such webhook of the caller')
  headers(
    @Param() p: WebhookIdParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookHeadersAnswer> {
    return this.rpc.call(WebhooksRpc.GetHeaders, { ...owner(auth), id: p.webhookId }, ctx);
  }

  @Put(':webhookId/headers')
  @ApiOperation({
    summary:
      'Replace the custom headers (values sealed at rest like the secret; [] removes them); URL webhooks send them with every delivery',
  })
  @ApiBody({ type: WebhookHeadersBodyDto })
  @ApiOkResponse({ description: 'The headers: names and hints, never the values', type: WebhookHeadersAnswer })
  @ApiErrorResponse(
    400,
    'A name is malformed, reserved (hop-by-hop, framing, signature, trace) or repeated, or a value is malformed; the message names it',
  )
  @ApiErrorResponse(403, 'A read token')
  @ApiErrorResponse(404, 'No such webhook of the caller')
  setHeaders(
    @Param() p: WebhookIdParam,
    @Body() body: WebhookHeadersBodyDto,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookHeadersAnswer> {
    return this.rpc.call(WebhooksRpc.SetHeaders, { ...owner(auth), id: p.webhookId, headers: body.headers }, ctx);
  }

  @Post(':webhookId/recover')
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Resend once every delivery that failed in [since, until) with its original webhook-id, through the queue; progress at …/recoveries/{id}',
  })
  @ApiBody({ type: RecoverBodyDto })
  @ApiAcceptedResponse({
    description: 'The recovery, with its id and counts (Location: …/recoveries/{id})',
    type: RecoveryView,
  })
  @ApiErrorResponse(400, 'since or until malformed, or since not before until')
  @ApiErrorResponse(403, 'A read token')
  @ApiErrorResponse(404, 'No such webhook of the caller')
  @ApiErrorResponse(409, 'The webhook is disabled or suspended, or a recovery of it is still running')
  async recover(
    @Param() p: WebhookIdParam,
    @Body() body: RecoverBodyDto,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RecoveryView> {
    const view = await this.rpc.call(
      WebhooksRpc.Recover,
      { ...owner(auth), id: p.webhookId, since: body.since, ...(body.until ? { until: body.until } : {}) },
      ctx,
    );
    void reply.header(
      'Location',
      `${this.config.publicUrl}/api/settings/webhooks/${encodeURIComponent(p.webhookId)}/recoveries/${view.id}`,
    );
    return view;
  }

  @Get(':webhookId/recoveries/:recoveryId')
  @ApiOperation({
    summary: 'Progress of a recovery: queued, sent, succeeded, failed; state done once nothing is pending',
  })
  @ApiOkResponse({ description: 'The recovery', type: RecoveryView })
  @ApiErrorResponse(404, 'No such webhook of the caller, or no such recovery of it')
  recovery(
    @Param() p: WebhookRecoveryParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<RecoveryView> {
    return this.rpc.call(WebhooksRpc.GetRecovery, { ...owner(auth), id: p.webhookId, recoveryId: p.recoveryId }, ctx);
  }

  @Post(':webhookId/replay/:logId')
  @HttpCode(200)
  @ApiOperation({
    summary: "Send a logged delivery again to the current URL and secret; answers the receiver's status",
  })
  @ApiOkResponse({ description: 'The HTTP status of the replayed delivery', type: ReplayAnswer })
  @ApiErrorResponse(403, 'A read token')
  @ApiErrorResponse(404, 'No such webhook of the caller, or no such log')
  replay(
    @Param() p: WebhookLogParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<{ status: number }> {
    return this.rpc.call(WebhooksRpc.Replay, { ...owner(auth), id: p.webhookId, logId: p.logId }, ctx);
  }

  @Post(':webhookId/test')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Send a test event (event.action ping) to the webhook URL now, signed like any delivery and logged as a test attempt; answers the receiver status (0: no answer)',
  })
  @ApiOkResponse({ description: 'The HTTP status the receiver answered', type: ReplayAnswer })
  @ApiErrorResponse(400, 'The webhook starts a job instead of calling a URL')
  @ApiErrorResponse(403, 'A read token')
  @ApiErrorResponse(404, 'No such webhook of the caller')
  test(
    @Param() p: WebhookIdParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<{ status: number }> {
    return this.rpc.call(WebhooksRpc.Test, { ...owner(auth), id: p.webhookId }, ctx);
  }

  @Post(':webhookId/:action')
  @HttpCode(200)
  @ApiOperation({ summary: 'enable (also clears a suspension) or disable' })
  @ApiOkResponse({ description: 'The webhook', type: WebhookAnswer })
  @ApiErrorResponse(400, 'action is neither enable nor disable')
  @ApiErrorResponse(403, 'A read token')
  @ApiErrorResponse(404, 'No such webhook of the caller')
  async setState(
    @Param() p: WebhookActionParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookAnswer> {
    return {
      webhook: await this.rpc.call(WebhooksRpc.SetState, { ...owner(auth), id: p.webhookId, action: p.action }, ctx),
    };
  }
}
