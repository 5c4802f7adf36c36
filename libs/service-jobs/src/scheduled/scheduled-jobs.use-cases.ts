import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import {
  type AuditEventType,
  BadRequestError,
  ConflictError,
  type CreateScheduledJobRpc,
  type JobView,
  NotFoundError,
  type RequestContext,
  LimitReachedError,
  type ScheduledJobRefRpc,
  type ScheduledJobView,
  TERMINAL_JOB_STAGES,
} from '@hub/contracts';
import { Outbox } from '@hub/messaging';
import { lockForTransaction, newObjectId } from '@hub/persistence';
import { type SecretBox } from '@hub/config';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS, JOBS_SECRETS } from '../jobs.tokens';
import { recordJobAudit } from '../jobs/job-events';
import { JobStore } from '../jobs/job-store';
import { JobsUseCases } from '../jobs/jobs.use-cases';
import { ResourceGroupCheck } from '../jobs/resource-group-check';
import { CronError, firstRunChecked, nextRun, parseCron } from './cron';
import { ScheduledJobEntity } from './scheduled-job.entity';

function cronChecked<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof CronError) throw new BadRequestError(e.message);
    throw e;
  }
}

function nextFrom(schedule: string, after: Date): Date | null {
  return cronChecked(() => nextRun(parseCron(schedule), after));
}

/** Scheduled jobs: create, read, suspend, resume, delete, run now, and the firing itself. */
@Injectable()
export class ScheduledJobsUseCases {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
    private readonly jobs: JobsUseCases,
    private readonly store: JobStore,
    @Inject(JOBS_SECRETS) private readonly secrets: SecretBox,
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    private readonly resourceGroups: ResourceGroupCheck,
  ) {}

  view(s: ScheduledJobEntity): ScheduledJobView {
    const secrets = Object.keys(s.secretValues);
    return {
      type: 'scheduled-job',
      id: s.id,
      schedule: s.schedule,
      suspend: s.suspend,
      concurrency: s.concurrency,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
      owner: s.owner,
      createdBy: s.createdBy,
      jobSpec: {
        ...s.jobSpec,
        ...(secrets.length > 0 ? { secrets: Object.fromEntries(secrets.map((k) => [k, null])) } : {}),
      },
      status: { lastJobId: s.lastJobId, nextJobRunAt: s.suspend ? null : (s.nextRunAt?.toISOString() ?? null) },
    };
  }

  async create(dto: CreateScheduledJobRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    const { secrets, ...spec } = dto.jobSpec;
    if (!spec.dockerImage === !spec.spaceId)
      throw new BadRequestError('Exactly one of jobSpec.dockerImage and jobSpec.spaceId must be given');
    if (!spec.command?.length)
      throw new BadRequestError(
        "jobSpec.command is required: the runners of this hub do not read an image's entrypoint",
      );
    await this.resourceGroups.assertOwnedBy(dto.owner, spec.resourceGroupId, 'jobSpec.resourceGroupId', ctx);
    const now = new Date();
    const s = Object.assign(new ScheduledJobEntity(), {
      id: newObjectId(now),
      namespace: dto.owner.name,
      owner: dto.owner,
      createdBy: dto.createdBy,
      schedule: dto.schedule,
      suspend: dto.suspend ?? false,
      concurrency: dto.concurrency ?? false,
      jobSpec: { ...spec, environment: spec.environment ?? {} },
      secretValues: this.secrets.sealMap(secrets ?? {}),
      lastJobId: null,
      createdAt: now,
      updatedAt: now,
      nextRunAt: cronChecked(() =>
        firstRunChecked(dto.schedule, now, this.config.HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS),
      ),
    } satisfies ScheduledJobEntity);
    const max = this.config.HUB_SCHEDULED_JOBS_MAX_PER_NAMESPACE;
    await this.outbox.transaction(async (m) => {
      // Held until commit, so parallel creates in one namespace cannot all see room for one more.
      await lockForTransaction(m, `jobs.scheduled:${s.namespace.toLowerCase()}`);
      const [{ n }] = (await m.query(
        `SELECT count(*)::int AS n FROM jobs.scheduled_jobs WHERE lower(namespace) = lower($1)`,
        [s.namespace],
      )) as { n: number }[];
      if (n >= max)
        throw new LimitReachedError(
          `${s.namespace} has ${n} scheduled jobs`,
          'HUB_SCHEDULED_JOBS_MAX_PER_NAMESPACE',
          max,
          'delete one to create another',
        );
      await m.getRepository(ScheduledJobEntity).insert(s);
      await this.audit(m, ctx, s, 'scheduled_job.create');
    });
    return this.view(s);
  }

  async list(namespace: string): Promise<ScheduledJobView[]> {
    const rows = await this.ds
      .getRepository(ScheduledJobEntity)
      .createQueryBuilder('s')
      .where('lower(s.namespace) = lower(:ns)', { ns: namespace })
      .orderBy('s.id', 'DESC')
      .take(1000)
      .getMany();
    return rows.map((s) => this.view(s));
  }

  async get(dto: ScheduledJobRefRpc): Promise<ScheduledJobView> {
    return this.view(await this.find(dto));
  }

  async delete(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<{ deleted: true }> {
    const s = await this.find(dto);
    await this.outbox.transaction(async (m) => {
      await m.getRepository(ScheduledJobEntity).delete({ id: s.id });
      await this.audit(m, ctx, s, 'scheduled_job.delete');
    });
    return { deleted: true };
  }

  async setSuspended(dto: ScheduledJobRefRpc, suspend: boolean, ctx: RequestContext): Promise<ScheduledJobView> {
    const s = await this.find(dto);
    const now = new Date();
    // Resuming starts from now: firings missed while suspended are not caught up.
    Object.assign(s, { suspend, updatedAt: now, nextRunAt: suspend ? s.nextRunAt : nextFrom(s.schedule, now) });
    await this.outbox.transaction(async (m) => {
      await m.getRepository(ScheduledJobEntity).save(s);
      await this.audit(m, ctx, s, suspend ? 'scheduled_job.suspend' : 'scheduled_job.resume');
    });
    return this.view(s);
  }

  async runNow(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<JobView> {
    const s = await this.find(dto);
    const job = await this.fire(s, ctx);
    if (!job) throw new ConflictError(`The previous run of scheduled job ${s.id} is still going (concurrency is off)`);
    await this.outbox.transaction((m) => this.audit(m, ctx, s, 'scheduled_job.run'));
    return job;
  }

  /** One firing: a job with initiator `scheduled-job`; null when skipped (concurrency off, previous run active). */
  async fire(s: ScheduledJobEntity, ctx: RequestContext): Promise<JobView | null> {
    if (!s.concurrency && s.lastJobId) {
      const last = await this.store.byId(s.lastJobId);
      if (last && !TERMINAL_JOB_STAGES.has(last.stage)) return null;
    }
    const job = await this.jobs.create(
      {
        namespace: s.namespace,
        spec: { ...s.jobSpec },
        initiator: { type: 'scheduled-job', id: s.id },
        owner: s.owner,
        createdBy: s.createdBy,
      },
      ctx,
      s.secretValues,
    );
    await this.ds.query(`UPDATE jobs.scheduled_jobs SET last_job_id = $2 WHERE id = $1`, [s.id, job.id]);
    return job;
  }

  private async find(dto: ScheduledJobRefRpc): Promise<ScheduledJobEntity> {
    const s = await this.ds.getRepository(ScheduledJobEntity).findOneBy({ id: dto.scheduledJobId });
    if (!s || s.namespace.toLowerCase() !== dto.namespace.toLowerCase())
      throw new NotFoundError(`Scheduled job ${dto.scheduledJobId} not found in ${dto.namespace}`);
    return s;
  }

  private audit(m: EntityManager, ctx: RequestContext, s: ScheduledJobEntity, type: AuditEventType): Promise<void> {
    return recordJobAudit(this.outbox, m, ctx, s, type, `Scheduled job ${s.id}: ${type.split('.')[1]}`, {
      scheduledJobId: s.id,
      schedule: s.schedule,
    });
  }
}
