import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { EmptyAnswer, OBJECT_ID_PATTERN, type RequestContext } from '@hub/contracts';
import {
  CreateScheduledJobDto,
  JobView,
  ScheduledJobsRpc,
  ScheduledJobView,
  UpdateJobLabelsDto,
  UpdateScheduleDto,
} from '@hub/jobs-contract';
import { type AuthInfo } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { ApiErrorResponse, Ctx, CurrentAuth } from '@hub/service-gateway';
import { JobNamespaces } from './job-namespaces';
import { NamespaceParam } from './jobs.params';

export class ScheduledJobParam extends NamespaceParam {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN.source })
  @Matches(OBJECT_ID_PATTERN, { message: 'scheduledJobId must be a 24-character hexadecimal id' })
  scheduledJobId!: string;
}

/** `/api/scheduled-jobs/{namespace}`: schedules that run a job at each cron tick. */
@ApiTags('jobs')
@ApiBearerAuth()
@ApiErrorResponse(404, 'No such namespace (or not yours), or no such scheduled job in it')
@Controller('api/scheduled-jobs/:namespace')
export class ScheduledJobsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly namespaces: JobNamespaces,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a scheduled job' })
  @ApiOkResponse({ description: 'The scheduled job', type: ScheduledJobView })
  @ApiErrorResponse(
    400,
    'A bad schedule (unreadable, never firing, or firing more often than HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS), a bad job object, or jobSpec.resourceGroupId names no resource group of the namespace',
  )
  @ApiErrorResponse(
    409,
    'The namespace has HUB_SCHEDULED_JOBS_MAX_PER_NAMESPACE scheduled jobs already; the message names the limit',
  )
  @ApiErrorResponse(403, 'Read-only token, or a role that cannot run jobs')
  async create(
    @Param() p: NamespaceParam,
    @Body() dto: CreateScheduledJobDto,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<ScheduledJobView> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, true);
    return this.rpc.call(
      ScheduledJobsRpc.Create,
      { ...dto, namespace: owner.name, owner, createdBy: { id: auth.user.id, name: auth.user.name } },
      ctx,
    );
  }

  @Get()
  @ApiOperation({ summary: 'Scheduled jobs of a namespace, newest first' })
  @ApiOkResponse({ description: 'The scheduled jobs', type: ScheduledJobView, isArray: true })
  async list(
    @Param() p: NamespaceParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<ScheduledJobView[]> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, false);
    return this.rpc.call(ScheduledJobsRpc.List, { namespace: owner.name }, ctx);
  }

  @Get(':scheduledJobId')
  @ApiOperation({ summary: 'One scheduled job' })
  @ApiOkResponse({ description: 'The scheduled job', type: ScheduledJobView })
  async get(
    @Param() p: ScheduledJobParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<ScheduledJobView> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, false);
    return this.rpc.call(ScheduledJobsRpc.Get, { namespace: owner.name, scheduledJobId: p.scheduledJobId }, ctx);
  }

  @Delete(':scheduledJobId')
  @ApiOperation({ summary: 'Delete a scheduled job (its past runs stay)' })
  @ApiOkResponse({ description: 'Deleted', type: EmptyAnswer })
  @ApiErrorResponse(403, 'Read-only token, or a role that cannot change jobs')
  async remove(
    @Param() p: ScheduledJobParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<EmptyAnswer> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, true);
    await this.rpc.call(ScheduledJobsRpc.Delete, { namespace: owner.name, scheduledJobId: p.scheduledJobId }, ctx);
    return {};
  }

  @Post(':scheduledJobId/suspend')
  @HttpCode(200)
  @ApiOperation({ summary: 'Stop firing until resumed' })
  @ApiOkResponse({ description: 'The scheduled job', type: ScheduledJobView })
  @ApiErrorResponse(403, 'Read-only token, or a role that cannot change jobs')
  async suspend(
    @Param() p: ScheduledJobParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<ScheduledJobView> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, true);
    return this.rpc.call(ScheduledJobsRpc.Suspend, { namespace: owner.name, scheduledJobId: p.scheduledJobId }, ctx);
  }

  @Post(':scheduledJobId/resume')
  @HttpCode(200)
  @ApiOperation({ summary: 'Fire again from the next tick (missed ticks are not caught up)' })
  @ApiOkResponse({ description: 'The scheduled job', type: ScheduledJobView })
  @ApiErrorResponse(403, 'Read-only token, or a role that cannot change jobs')
  async resume(
    @Param() p: ScheduledJobParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<ScheduledJobView> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, true);
    return this.rpc.call(ScheduledJobsRpc.Resume, { namespace: owner.name, scheduledJobId: p.scheduledJobId }, ctx);
  }

  @Post(':scheduledJobId/run')
  @HttpCode(200)
  @ApiOperation({ summary: 'Run it now' })
  @ApiOkResponse({ description: 'The job started', type: JobView })
  @ApiErrorResponse(403, 'Read-only token, or a role that cannot run jobs')
  @ApiErrorResponse(409, 'Concurrency is off and the previous run is still going')
  async run(
    @Param() p: ScheduledJobParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<JobView> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, true);
    return this.rpc.call(ScheduledJobsRpc.Run, { namespace: owner.name, scheduledJobId: p.scheduledJobId }, ctx);
  }

  @Post(':scheduledJobId/schedule')
  @HttpCode(200)
  @ApiOperation({ summary: 'Change the schedule, keeping the job; the next run counts from now' })
  @ApiOkResponse({ description: 'The scheduled job', type: ScheduledJobView })
  @ApiErrorResponse(
    400,
    'A bad schedule (unreadable, never firing, or firing more often than HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS)',
  )
  @ApiErrorResponse(403, 'Read-only token, or a role that cannot change jobs')
  async schedule(
    @Param() p: ScheduledJobParam,
    @Body() dto: UpdateScheduleDto,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<ScheduledJobView> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, true);
    return this.rpc.call(
      ScheduledJobsRpc.UpdateSchedule,
      { namespace: owner.name, scheduledJobId: p.scheduledJobId, schedule: dto.schedule },
      ctx,
    );
  }

  @Put(':scheduledJobId/labels')
  @ApiOperation({ summary: "Replace the labels of the scheduled job's later runs (jobSpec.labels)" })
  @ApiOkResponse({ description: 'The scheduled job with its new labels', type: ScheduledJobView })
  @ApiErrorResponse(400, 'A label key or value out of bounds')
  @ApiErrorResponse(403, 'Read-only token, or a role that cannot change jobs')
  async labels(
    @Param() p: ScheduledJobParam,
    @Body() dto: UpdateJobLabelsDto,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<ScheduledJobView> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, true);
    return this.rpc.call(
      ScheduledJobsRpc.UpdateLabels,
      { namespace: owner.name, scheduledJobId: p.scheduledJobId, labels: dto.labels },
      ctx,
    );
  }
}
