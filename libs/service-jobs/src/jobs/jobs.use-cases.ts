import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import {
  BadRequestError,
  type CreateJobRpc,
  type DuplicateJobRpc,
  type JobLogsChunk,
  type JobLogsRpc,
  type JobMetricsAnswer,
  type JobPage,
  type JobRefRpc,
  type JobView,
  type ListJobsRpc,
  type RequestContext,
  TERMINAL_JOB_STAGES,
  type UpdateJobLabelsRpc,
} from '@hub/contracts';
import { type SecretBox } from '@hub/config';
import { newObjectId } from '@hub/persistence';
import { Outbox } from '@hub/messaging';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS, JOBS_SECRETS } from '../jobs.tokens';
import { JobLogs } from '../logs/job-logs';
import { JobSupervisor } from '../runner/job-supervisor';
import { jobAuditEvent, recordJobAudit } from './job-events';
import { JobEntity, type JobOwner } from './job.entity';
import { ACTIVE_STAGES, JobStore } from './job-store';
import { toJobView } from './job.view';
import { NamespaceResolver } from './namespace-resolver';
import { ResourceGroupCheck } from './resource-group-check';

/** Create, read, list, cancel, duplicate and relabel jobs. */
@Injectable()
export class JobsUseCases {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    @Inject(JOBS_SECRETS) private readonly secrets: SecretBox,
    private readonly store: JobStore,
    private readonly logStore: JobLogs,
    private readonly supervisor: JobSupervisor,
    private readonly namespaces: NamespaceResolver,
    private readonly resourceGroups: ResourceGroupCheck,
  ) {}

  view(j: JobEntity): JobView {
    return toJobView(j, { jobsDomain: this.config.HUB_JOBS_DOMAIN, sshHost: this.config.HUB_JOBS_SSH_HOST });
  }

  /** `sealedSecrets`: values already sealed (a duplicate or a scheduled firing); otherwise the spec's are sealed here. */
  async create(dto: CreateJobRpc, ctx: RequestContext, sealedSecrets?: Record<string, string>): Promise<JobView> {
    const { secrets, ...spec } = dto.spec;
    if (!spec.dockerImage === !spec.spaceId)
      throw new BadRequestError('Exactly one of dockerImage and spaceId must be given');
    if (!spec.command?.length)
      throw new BadRequestError("command is required: the runners of this hub do not read an image's entrypoint");
    if (spec.expose?.portsPublic?.some((p) => !spec.expose?.ports.includes(p)))
      throw new BadRequestError('expose.portsPublic must be a subset of expose.ports');
    const refused = this.supervisor.refusal(spec.flavor);
    if (refused) throw new BadRequestError(refused);
    const owner: JobOwner = dto.owner ?? (await this.namespaces.resolve(dto.namespace, ctx));
    await this.resourceGroups.assertOwnedBy(owner, spec.resourceGroupId, 'resourceGroupId', ctx);
    const now = new Date();
    const job = Object.assign(new JobEntity(), {
      id: newObjectId(now),
      namespace: owner.name,
      owner,
      createdBy: dto.createdBy ?? { id: owner.id, name: owner.name },
      initiator: dto.initiator,
      spec: { ...spec, environment: spec.environment ?? {} },
      secretValues: sealedSecrets ?? this.secrets.sealMap(secrets ?? {}),
      extraEnv: dto.environment ?? {},
      labels: spec.labels ?? {},
      stage: 'SCHEDULING',
      message: null,
      failureCount: 0,
      attempts: spec.attempts ?? 1,
      runner: null,
      runHandle: null,
      heartbeatAt: now,
      metrics: null,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      finishedAt: null,
    } satisfies JobEntity);
    await this.store.insert(
      job,
      [jobAuditEvent(ctx, job, 'jobs.create', `Job ${job.id} created`, { initiator: job.initiator })],
      this.config.HUB_JOBS_MAX_ACTIVE_PER_NAMESPACE,
    );
    this.supervisor.launch(job);
    return this.view(job);
  }

  async get(dto: JobRefRpc): Promise<JobView> {
    return this.view(await this.store.find(dto.namespace, dto.jobId));
  }

  async list(dto: ListJobsRpc): Promise<JobPage> {
    const labels: Record<string, string> = {};
    for (const l of dto.labels ?? []) {
      const at = l.indexOf('=');
      if (at < 1) throw new BadRequestError(`label filter "${l}" must be key=value`);
      labels[l.slice(0, at)] = l.slice(at + 1);
    }
    const q = this.ds
      .getRepository(JobEntity)
      .createQueryBuilder('j')
      .where('lower(j.namespace) = lower(:ns)', { ns: dto.namespace })
      .andWhere(`j.stage <> 'DELETED'`)
      .orderBy('j.id', 'DESC')
      .take(dto.limit + 1);
    if (dto.stage) q.andWhere('j.stage = :stage', { stage: dto.stage });
    if (Object.keys(labels).length > 0) q.andWhere('j.labels @> :labels::jsonb', { labels: JSON.stringify(labels) });
    if (dto.cursor) q.andWhere('j.id < :cursor', { cursor: dto.cursor });
    const rows = await q.getMany();
    const page = rows.slice(0, dto.limit);
    return {
      jobs: page.map((j) => this.view(j)),
      ...(rows.length > dto.limit ? { nextCursor: page[page.length - 1].id } : {}),
    };
  }

  async cancel(dto: JobRefRpc, ctx: RequestContext): Promise<JobView> {
    const j = await this.store.find(dto.namespace, dto.jobId);
    if (TERMINAL_JOB_STAGES.has(j.stage)) return this.view(j);
    const canceled = await this.store.transition(
      j.id,
      ACTIVE_STAGES,
      {
        stage: 'CANCELED',
        message: `Canceled by ${ctx.userName ?? 'the system'}`,
        finishedAt: new Date(),
        runner: null,
      },
      (m, job) => recordJobAudit(this.outbox, m, ctx, job, 'jobs.cancel', `Job ${job.id} canceled`),
    );
    // Here or on the replica running it (its heartbeat sees the stage): the process tree is killed.
    this.supervisor.stop(j.id);
    return this.view(canceled ?? (await this.store.find(dto.namespace, dto.jobId)));
  }

  async duplicate(dto: DuplicateJobRpc, ctx: RequestContext): Promise<JobView> {
    const j = await this.store.find(dto.namespace, dto.jobId);
    return this.create(
      {
        namespace: j.namespace,
        spec: { ...j.spec },
        initiator: { type: 'user', id: dto.createdBy.id, name: dto.createdBy.name },
        environment: j.extraEnv,
        owner: j.owner,
        createdBy: dto.createdBy,
      },
      ctx,
      j.secretValues,
    );
  }

  async updateLabels(dto: UpdateJobLabelsRpc, ctx: RequestContext): Promise<JobView> {
    const j = await this.store.find(dto.namespace, dto.jobId);
    const updated = await this.store.transition(
      j.id,
      [j.stage, ...ACTIVE_STAGES, 'COMPLETED', 'ERROR', 'CANCELED'],
      { labels: dto.labels },
      (m, job) =>
        recordJobAudit(this.outbox, m, ctx, job, 'jobs.update_labels', `Labels of job ${job.id} updated`, {
          labels: dto.labels,
        }),
    );
    return this.view(updated ?? j);
  }

  async metrics(dto: JobRefRpc): Promise<JobMetricsAnswer> {
    const j = await this.store.find(dto.namespace, dto.jobId);
    return { stage: j.stage, ...(j.metrics ? { sample: j.metrics } : {}) };
  }

  async logs(dto: JobLogsRpc): Promise<JobLogsChunk> {
    const j = await this.store.find(dto.namespace, dto.jobId);
    // Stage first, lines second: a stream that sees a final stage has every line written before it.
    const lines = await this.logStore.read(j.id, dto.afterSeq, dto.tail);
    return { lines, stage: j.stage };
  }
}
