import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type RequestContext } from '@hub/contracts';
import {
  AuditStreamBodyDto,
  AuditStreamDeliveriesQueryDto,
  AuditStreamDeliveriesView,
  AuditStreamsRpc,
  AuditStreamTestView,
  AuditStreamView,
  type OrganizationAccess,
} from '@hub/organizations-contract';
import { RpcClient } from '@hub/messaging';
import { ApiErrorResponse, Ctx, CurrentOrg, OrgNameParam, OrgScoped } from '@hub/service-gateway';
import { AuditStreamParam } from './audit-stream.params';

const ADMINS = { role: 'admin', minPlan: 'enterprise' } as const;
const FORBIDDEN = 'Not an admin of the organization, or the plan is not Enterprise';

/**
 * Audit log streaming (issue 39, decision 0411): a sub-resource of the organization's audit log,
 * for the admins of Enterprise organizations. The rules live in the organizations service.
 */
@ApiTags('orgs')
@ApiBearerAuth()
@Controller('api/organizations/:name/audit-log/streams')
export class AuditStreamsController {
  constructor(private readonly rpc: RpcClient) {}

  private org(access: OrganizationAccess): { organizationId: string; organization: string } {
    return { organizationId: access.organization.id, organization: access.organization.name };
  }

  @Get()
  @OrgScoped(ADMINS)
  @ApiOperation({ summary: "The organization's audit log streams (org admins, Enterprise plan)" })
  @ApiOkResponse({ type: AuditStreamView, isArray: true })
  @ApiErrorResponse(403, FORBIDDEN)
  @ApiErrorResponse(404, 'No such organization')
  list(
    @Param() _p: OrgNameParam,
    @CurrentOrg() access: OrganizationAccess,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditStreamView[]> {
    return this.rpc.call(AuditStreamsRpc.List, this.org(access), ctx);
  }

  @Post()
  @OrgScoped(ADMINS)
  @ApiOperation({
    summary: 'Stream the audit log to S3-compatible storage, Splunk HEC, Datadog Logs or an HTTPS endpoint',
  })
  @ApiCreatedResponse({ type: AuditStreamView, description: 'The stream, active; credentials as hints only' })
  @ApiErrorResponse(400, 'A field missing for the type, of another type, or out of bounds (the message names it)')
  @ApiErrorResponse(403, FORBIDDEN)
  @ApiErrorResponse(404, 'No such organization')
  @ApiErrorResponse(409, 'The organization has as many streams as it may have')
  @ApiErrorResponse(503, 'The hub has no HUB_SECRET_KEY to seal credentials with')
  create(
    @Param() _p: OrgNameParam,
    @Body() body: AuditStreamBodyDto,
    @CurrentOrg() access: OrganizationAccess,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditStreamView> {
    return this.rpc.call(AuditStreamsRpc.Create, { ...this.org(access), body }, ctx);
  }

  @Get(':streamId')
  @OrgScoped(ADMINS)
  @ApiOperation({ summary: 'One audit log stream with its state and last error' })
  @ApiOkResponse({ type: AuditStreamView })
  @ApiErrorResponse(403, FORBIDDEN)
  @ApiErrorResponse(404, 'No such organization or stream')
  get(
    @Param() p: AuditStreamParam,
    @CurrentOrg() access: OrganizationAccess,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditStreamView> {
    return this.rpc.call(AuditStreamsRpc.Get, { ...this.org(access), streamId: p.streamId }, ctx);
  }

  @Put(':streamId')
  @OrgScoped(ADMINS)
  @ApiOperation({
    summary: "Replace a stream's destination and filter (credentials left out are kept when the type stays)",
  })
  @ApiOkResponse({ type: AuditStreamView })
  @ApiErrorResponse(400, 'A field missing for the type, of another type, or out of bounds (the message names it)')
  @ApiErrorResponse(403, FORBIDDEN)
  @ApiErrorResponse(404, 'No such organization or stream')
  update(
    @Param() p: AuditStreamParam,
    @Body() body: AuditStreamBodyDto,
    @CurrentOrg() access: OrganizationAccess,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditStreamView> {
    return this.rpc.call(AuditStreamsRpc.Update, { ...this.org(access), streamId: p.streamId, body }, ctx);
  }

  @Delete(':streamId')
  @OrgScoped(ADMINS)
  @ApiOperation({ summary: 'Delete a stream and its delivery log' })
  @ApiOkResponse({ schema: { type: 'object', properties: { deleted: { type: 'boolean', enum: [true] } } } })
  @ApiErrorResponse(403, FORBIDDEN)
  @ApiErrorResponse(404, 'No such organization or stream')
  remove(
    @Param() p: AuditStreamParam,
    @CurrentOrg() access: OrganizationAccess,
    @Ctx() ctx: RequestContext,
  ): Promise<{ deleted: true }> {
    return this.rpc.call(AuditStreamsRpc.Delete, { ...this.org(access), streamId: p.streamId }, ctx);
  }

  @Post(':streamId/pause')
  @HttpCode(200)
  @OrgScoped(ADMINS)
  @ApiOperation({ summary: 'Pause a stream: events wait, up to the retention window' })
  @ApiOkResponse({ type: AuditStreamView })
  @ApiErrorResponse(403, FORBIDDEN)
  @ApiErrorResponse(404, 'No such organization or stream')
  pause(
    @Param() p: AuditStreamParam,
    @CurrentOrg() access: OrganizationAccess,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditStreamView> {
    return this.rpc.call(AuditStreamsRpc.SetState, { ...this.org(access), streamId: p.streamId, action: 'pause' }, ctx);
  }

  @Post(':streamId/resume')
  @HttpCode(200)
  @OrgScoped(ADMINS)
  @ApiOperation({ summary: 'Resume a stream: what waited is sent, in order' })
  @ApiOkResponse({ type: AuditStreamView })
  @ApiErrorResponse(403, FORBIDDEN)
  @ApiErrorResponse(404, 'No such organization or stream')
  resume(
    @Param() p: AuditStreamParam,
    @CurrentOrg() access: OrganizationAccess,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditStreamView> {
    return this.rpc.call(
      AuditStreamsRpc.SetState,
      { ...this.org(access), streamId: p.streamId, action: 'resume' },
      ctx,
    );
  }

  @Post(':streamId/test')
  @HttpCode(200)
  @OrgScoped(ADMINS)
  @ApiOperation({ summary: "Send one synthetic record and answer with the destination's reply" })
  @ApiOkResponse({ type: AuditStreamTestView })
  @ApiErrorResponse(403, FORBIDDEN)
  @ApiErrorResponse(404, 'No such organization or stream')
  test(
    @Param() p: AuditStreamParam,
    @CurrentOrg() access: OrganizationAccess,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditStreamTestView> {
    return this.rpc.call(AuditStreamsRpc.Test, { ...this.org(access), streamId: p.streamId }, ctx);
  }

  @Get(':streamId/deliveries')
  @OrgScoped(ADMINS)
  @ApiOperation({ summary: "The stream's delivery log: batches, tests and drops, newest first" })
  @ApiOkResponse({ type: AuditStreamDeliveriesView })
  @ApiErrorResponse(400, 'limit out of bounds')
  @ApiErrorResponse(403, FORBIDDEN)
  @ApiErrorResponse(404, 'No such organization or stream')
  deliveries(
    @Param() p: AuditStreamParam,
    @Query() q: AuditStreamDeliveriesQueryDto,
    @CurrentOrg() access: OrganizationAccess,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditStreamDeliveriesView> {
    return this.rpc.call(
      AuditStreamsRpc.ListDeliveries,
      { ...this.org(access), streamId: p.streamId, limit: q.limit ?? 100 },
      ctx,
    );
  }
}
