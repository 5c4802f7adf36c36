import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { type RequestContext } from '@hub/contracts';
import { type JobOwnerRef, JobMetricsSample, JobsRpc, type JobView, TERMINAL_JOB_STAGES } from '@hub/jobs-contract';
import { type AuthInfo } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { ApiErrorResponse, Ctx, CurrentAuth, LiveAnswers, StreamSlots } from '@hub/service-gateway';
import { JobLogFeeds } from './job-log-feeds';
import { LogStream } from './job-log-stream';
import { JobNamespaces } from './job-namespaces';
import { JobParam, LogsQuery } from './jobs.params';
import { sleep, SseStream } from './sse';

const SSE_ANSWER = {
  description: 'server-sent events',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
};
const EVENTS_POLL_MS = 250;

/**
 * When the job reached what an event reports: its end, its start, its creation; a retry while
 * RUNNING (no time of its own on the job object) is stamped when the stream saw it.
 */
function stageTime(job: JobView): string {
  if (job.finishedAt) return job.finishedAt;
  if (job.status.stage === 'RUNNING' && job.startedAt && !job.status.failureCount) return job.startedAt;
  if (job.status.stage === 'SCHEDULING') return job.createdAt;
  return new Date().toISOString();
}
const METRICS_EVERY_MS = 1000;

/**
 * The job streams as server-sent events, ended when the job has ended and everything is out: the
 * same in both run modes. Log lines are pushed from the job's runner over the bus, the stored log
 * as backfill (decision 0637); stage changes and metrics are read from the jobs service (RPC).
 */
@ApiTags('jobs')
@ApiBearerAuth()
@Controller('api/jobs/:namespace/:jobId')
export class JobStreamsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly namespaces: JobNamespaces,
    private readonly live: LiveAnswers,
    private readonly slots: StreamSlots,
    private readonly feeds: JobLogFeeds,
  ) {}

  /**
   * Opens the stream, which ends when the token is revoked or the caller loses access to the
   * namespace (decision 0014). It holds one of the caller's stream slots until it closes; past the
   * caps a 429 (decision 0505).
   */
  private open(reply: FastifyReply, ctx: RequestContext, auth: AuthInfo, owner: JobOwnerRef): SseStream {
    this.slots.take(reply, { userId: auth.user.id, tokenId: auth.token.id });
    const sse = new SseStream(reply, ctx.requestId);
    const grant =
      owner.type === 'org'
        ? {
            tokenId: auth.token.id,
            userId: auth.user.id,
            organizationId: owner.id,
            stillAllowed: () => this.namespaces.resolve(owner.name, auth, ctx, false).then(() => true),
          }
        : { tokenId: auth.token.id, userId: auth.user.id };
    this.live.add(reply, grant, () =>
      sse.cutOff('ended: the token was revoked or your access to this namespace changed'),
    );
    return sse;
  }

  @Get('logs')
  @ApiOperation({
    summary: 'Log lines as server-sent events: data: {"data": "<line>", "timestamp": "<ISO>"}; ends with the job',
  })
  @ApiOkResponse(SSE_ANSWER)
  @ApiErrorResponse(404, 'No such job in this namespace')
  async logs(
    @Param() p: JobParam,
    @Query() q: LogsQuery,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, false);
    const ref = { namespace: owner.name, jobId: p.jobId };
    // Subscribed first, then the stored log read: a line printed meanwhile is in one or the other
    // (or both: the seq drops the second copy), never in neither (decision 0637).
    const viewer = await this.feeds.watch(p.jobId);
    try {
      // The first read answers 404 as JSON before the stream opens.
      const first = await this.rpc.call(JobsRpc.Logs, { ...ref, afterSeq: 0, tail: q.tail }, ctx);
      const sse = this.open(reply, ctx, auth, owner);
      try {
        await new LogStream(sse, viewer, (afterSeq) => this.rpc.call(JobsRpc.Logs, { ...ref, afterSeq }, ctx)).run(
          first,
        );
      } finally {
        sse.end();
      }
    } finally {
      viewer.close();
    }
  }

  @Get('events')
  @ApiOperation({
    summary:
      'Stage changes as server-sent events: data: {"stage", "message", "failureCount", "timestamp"}; ends with the job',
  })
  @ApiOkResponse(SSE_ANSWER)
  @ApiErrorResponse(404, 'No such job in this namespace')
  async events(
    @Param() p: JobParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, false);
    const ref = { namespace: owner.name, jobId: p.jobId };
    let job = await this.rpc.call(JobsRpc.Get, ref, ctx);
    const sse = this.open(reply, ctx, auth, owner);
    let last = '';
    try {
      for (;;) {
        const key = `${job.status.stage}|${job.status.failureCount}|${job.status.message ?? ''}`;
        if (key !== last) {
          sse.send({
            stage: job.status.stage,
            message: job.status.message,
            failureCount: job.status.failureCount,
            timestamp: stageTime(job),
          });
          last = key;
        }
        if (TERMINAL_JOB_STAGES.has(job.status.stage) || sse.isClosed) break;
        await sleep(EVENTS_POLL_MS);
        job = await this.rpc.call(JobsRpc.Get, ref, ctx);
      }
    } finally {
      sse.end();
    }
  }

  @Get('metrics')
  @ApiOperation({
    summary: 'Resource samples as server-sent events, one a second while the job runs',
    description: `Each event's data is a JobMetricsSample (${getSchemaPath(JobMetricsSample)}): what is not measured is 0, never missing.`,
  })
  @ApiExtraModels(JobMetricsSample)
  @ApiOkResponse({
    description: 'server-sent events; each data line a JobMetricsSample',
    content: {
      'text/event-stream': {
        schema: { type: 'string', description: `data: ${getSchemaPath(JobMetricsSample)}` },
      },
    },
  })
  @ApiErrorResponse(404, 'No such job in this namespace')
  async metrics(
    @Param() p: JobParam,
    @CurrentAuth() auth: AuthInfo,
    @Ctx() ctx: RequestContext,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const owner = await this.namespaces.resolve(p.namespace, auth, ctx, false);
    const ref = { namespace: owner.name, jobId: p.jobId };
    let sample = await this.rpc.call(JobsRpc.Metrics, ref, ctx);
    const sse = this.open(reply, ctx, auth, owner);
    try {
      while (!TERMINAL_JOB_STAGES.has(sample.stage) && !sse.isClosed) {
        if (sample.sample) sse.send(sample.sample);
        await sleep(METRICS_EVERY_MS);
        sample = await this.rpc.call(JobsRpc.Metrics, ref, ctx);
      }
    } finally {
      sse.end();
    }
  }
}
