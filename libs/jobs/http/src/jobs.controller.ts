import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type RequestContext } from '@hub/contracts';
import { CreateJobDto, JobHardwareView, JobsRpc, JobView, UpdateJobLabelsDto } from '@hub/jobs-contract';
import { type AuthInfo } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { ApiErrorResponse, Ctx, CurrentAuth, nextLink } from '@hub/service-gateway';
import { hardwareViews } from './job-hardware.view';
import { JobNamespaces } from './job-namespaces';
import { JobParam, ListJobsQuery, NamespaceParam } from './jobs.params';

const PAGE = 100;

/** Architecture section 6, the Jobs API: what `huggingface_hub` and `@huggingface/hub` call. */
@ApiTags('jobs')
@ApiBearerAuth()
@Controller('api/jobs')
export class JobsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly namespaces: JobNamespaces,
  ) {}

  @Get('hardware')
  @ApiOperation({ summary: 'Every flavor a job may run on, with CPU, RAM, accelerator and price' })
  @ApiOkResponse({ description: 'The flavors of spec 2.3', type: JobHardwareView, isArray: true })
  hardware(): JobHardwareView[] {
    return hardwareViews();
  }

  @Post(':namespace')
  @ApiOperation({ summary: 'Run a job in a namespace (yours or an organization you may write to)' })
  @ApiOkResponse({ description: 'The job, SCHEDULING', type: JobView })
  @ApiErrorResponse(
    400,
    'A field of the job object is missing or out of bounds, or resourceGroupId names no resource group of the namespace',
  )
  @ApiErrorResponse(403, 'Read-only token, or a role that cannot run jobs')
  @ApiErrorResponse(404, 'No such namespace (or not yours)')
  @ApiErrorResponse(
    409,
    'The namespace has HUB_JOBS_MAX_ACTIVE_PER_NAMESPACE active jobs already; the message names the limit',
  )
  @HttpCode(200)
  async create(
    @Param() p: NamespaceParam,
    @Body() dto: CreateJobDto,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<JobView> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, true);
    return this.rpc.call(
      JobsRpc.Create,
      {
        namespace: owner.name,
        spec: dto,
        owner,
        createdBy: { id: auth.user.id, name: auth.user.name },
        initiator: { type: 'user', id: auth.user.id, name: auth.user.name },
      },
      ctx,
    );
  }

  @Get(':namespace')
  @ApiOperation({ summary: 'Jobs of a namespace, newest first; next page in the Link header' })
  @ApiOkResponse({ description: 'A page of jobs', type: JobView, isArray: true })
  @ApiErrorResponse(400, 'A bad filter (an unknown stage, a label not key=value) or cursor')
  @ApiErrorResponse(404, 'No such namespace (or not yours)')
  async list(
    @Param() p: NamespaceParam,
    @Query() q: ListJobsQuery,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<JobView[]> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, false);
    const limit = q.limit ?? PAGE;
    const page = await this.rpc.call(
      JobsRpc.List,
      { namespace: owner.name, stages: q.stage, labels: q.label, cursor: q.cursor, limit },
      ctx,
    );
    if (page.nextCursor) void reply.header('link', nextLink(reply.request, page.nextCursor));
    return page.jobs;
  }

  @Get(':namespace/:jobId')
  @ApiOperation({ summary: 'One job' })
  @ApiOkResponse({ description: 'The job', type: JobView })
  @ApiErrorResponse(404, 'No such job in this namespace')
  async get(@Param() p: JobParam, @CurrentAuth() auth: AuthInfo, @Ctx() ctx: RequestContext): Promise<JobView> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, false);
    return this.rpc.call(JobsRpc.Get, { namespace: owner.name, jobId: p.jobId }, ctx);
  }

  @Post(':namespace/:jobId/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a job at any stage before it ends; its process tree is stopped' })
  @ApiOkResponse({ description: 'The job, CANCELED (or as it ended)', type: JobView })
  @ApiErrorResponse(403, 'Read-only token, or a role that cannot change jobs')
  @ApiErrorResponse(404, 'No such job in this namespace')
  async cancel(@Param() p: JobParam, @CurrentAuth() auth: AuthInfo, @Ctx() ctx: RequestContext): Promise<JobView> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, true);
    return this.rpc.call(JobsRpc.Cancel, { namespace: owner.name, jobId: p.jobId }, ctx);
  }

  @Post(':namespace/:jobId/duplicate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Run the same job again (same spec and secrets)' })
  @ApiOkResponse({ description: 'The new job', type: JobView })
  @ApiErrorResponse(403, 'Read-only token, or a role that cannot run jobs')
  @ApiErrorResponse(404, 'No such job in this namespace')
  @ApiErrorResponse(
    409,
    'The namespace has HUB_JOBS_MAX_ACTIVE_PER_NAMESPACE active jobs already; the message names the limit',
  )
  async duplicate(@Param() p: JobParam, @CurrentAuth() auth: AuthInfo, @Ctx() ctx: RequestContext): Promise<JobView> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, true);
    return this.rpc.call(
      JobsRpc.Duplicate,
      { namespace: owner.name, jobId: p.jobId, createdBy: { id: auth.user.id, name: auth.user.name } },
      ctx,
    );
  }

  @Put(':namespace/:jobId/labels')
  @ApiOperation({ summary: "Replace a job's labels" })
  @ApiOkResponse({ description: 'The job with its new labels', type: JobView })
  @ApiErrorResponse(400, 'A label key or value out of bounds')
  @ApiErrorResponse(403, 'Read-only token, or a role that cannot change jobs')
  @ApiErrorResponse(404, 'No such job in this namespace')
  async labels(
    @Param() p: JobParam,
    @Body() dto: UpdateJobLabelsDto,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
  ): Promise<JobView> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, true);
    return this.rpc.call(JobsRpc.UpdateLabels, { namespace: owner.name, jobId: p.jobId, labels: dto.labels }, ctx);
  }
}
