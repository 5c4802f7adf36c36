import { Body, Controller, Delete, Get, Headers, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type RequestContext } from '@hub/contracts';
import {
  BulkNotificationsResult,
  DeleteNotificationsDto,
  inboxNotModified,
  MarkNotificationsDto,
  NOTIFICATION_ITEM_CLASSES,
  NotificationBulkQuery,
  NotificationFilters,
  NotificationsListView,
  NotificationsRpc,
} from '@hub/notifications-contract';
import { RpcClient } from '@hub/messaging';
import { ApiErrorResponse, Ctx } from '@hub/service-gateway';
import { InboxPollCache, type InboxValidators, queryKey } from './inbox-poll-cache';
import { optionalBody } from './optional-body';

@ApiTags('notifications')
@ApiBearerAuth()
@ApiExtraModels(...NOTIFICATION_ITEM_CLASSES)
@Controller('api/notifications')
export class NotificationsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly polls: InboxPollCache,
  ) {}

  @Get()
  @ApiOperation({
    summary: "The caller's notifications, newest first, 20 a page",
    description:
      'ETag and Last-Modified on every page; If-None-Match / If-Modified-Since answer 304 while nothing in the inbox changed.',
  })
  @ApiOkResponse({ description: 'A page with the counts', type: NotificationsListView })
  @ApiResponse({ status: 304, description: 'Nothing changed since the ETag or date given' })
  @ApiErrorResponse(400, 'A query parameter out of its bounds')
  async list(
    @Query() q: NotificationFilters,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Headers('if-modified-since') ifModifiedSince: string | undefined,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<NotificationsListView | undefined> {
    const conditions = printable({ ifNoneMatch, ifModifiedSince });
    const user = ctx.userId;
    const query = queryKey(q);
    const known = user === undefined ? undefined : this.polls.lookup(user, query);
    if (known && inboxNotModified(known.etag, Date.parse(known.lastModified), conditions))
      return notModified(reply, known);
    const generation = this.polls.generation;
    const answer = await this.rpc.call(NotificationsRpc.List, { filters: { ...q }, ...conditions }, ctx);
    // Only the validators: the page itself is not kept.
    if (user !== undefined)
      this.polls.remember(user, query, { etag: answer.etag, lastModified: answer.lastModified }, generation);
    if (answer.notModified || !answer.page) return notModified(reply, answer);
    validators(reply, answer);
    return answer.page;
  }

  @Post('mark-as-read')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Mark notifications read or unread: by discussionIds, or every one matching the filters with applyToAll=true',
  })
  @ApiOkResponse({ description: 'How many changed', type: BulkNotificationsResult })
  @ApiErrorResponse(400, 'Neither discussionIds nor applyToAll=true, or a bad id or filter')
  mark(
    @Query() q: NotificationBulkQuery,
    @Body() body: MarkNotificationsDto,
    @Ctx() ctx: RequestContext,
  ): Promise<BulkNotificationsResult> {
    return this.changing(
      ctx,
      this.rpc.call(
        NotificationsRpc.Mark,
        { query: { ...q }, discussionIds: body.discussionIds ?? [], read: body.read ?? true },
        ctx,
      ),
    );
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Delete notifications: by discussionIds, or every one matching the filters with applyToAll=true',
  })
  @ApiOkResponse({ description: 'How many were deleted', type: BulkNotificationsResult })
  @ApiErrorResponse(400, 'Neither discussionIds nor applyToAll=true, or a bad id or filter')
  @ApiBody({ type: DeleteNotificationsDto, required: false })
  remove(
    @Query() q: NotificationBulkQuery,
    @Req() req: FastifyRequest,
    @Ctx() ctx: RequestContext,
  ): Promise<BulkNotificationsResult> {
    // The body is optional here (applyToAll=true needs none), so it is checked here rather than by the pipe.
    const body = optionalBody(DeleteNotificationsDto, req.body);
    return this.changing(
      ctx,
      this.rpc.call(NotificationsRpc.Delete, { query: { ...q }, discussionIds: body.discussionIds ?? [] }, ctx),
    );
  }

  /**
   * A change made through this gateway: the caller's next poll here must see it even before the
   * service's inbox.changed event arrives (read your own writes).
   */
  private async changing<T>(ctx: RequestContext, change: Promise<T>): Promise<T> {
    try {
      return await change;
    } finally {
      if (ctx.userId !== undefined) this.polls.forget([ctx.userId]);
    }
  }
}

function validators(reply: FastifyReply, v: InboxValidators): void {
  void reply
    .header('ETag', v.etag)
    .header('Last-Modified', v.lastModified)
    .header('Cache-Control', 'private, no-cache');
}

function notModified(reply: FastifyReply, v: InboxValidators): undefined {
  validators(reply, v);
  void reply.status(304);
  return undefined;
}

/** Conditional headers travel only when they are plain short text (else they are ignored, as HTTP allows). */
function printable(h: { ifNoneMatch?: string; ifModifiedSince?: string }): {
  ifNoneMatch?: string;
  ifModifiedSince?: string;
} {
  const ok = (v: string | undefined, max: number): v is string =>
    v !== undefined && v.length <= max && /^[\x20-\x7e]+$/.test(v);
  return {
    ...(ok(h.ifNoneMatch, 200) ? { ifNoneMatch: h.ifNoneMatch } : {}),
    ...(ok(h.ifModifiedSince, 64) ? { ifModifiedSince: h.ifModifiedSince } : {}),
  };
}
