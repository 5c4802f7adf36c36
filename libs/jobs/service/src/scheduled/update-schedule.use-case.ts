import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { ScheduledJobsRpc, type ScheduledJobView, type UpdateScheduleRpc } from '@hub/jobs-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS } from '../jobs.di';
import { ScheduledJobNotFoundError } from '../jobs/jobs.errors';
import { firstRunChecked } from './cron';
import { recordScheduledJobAudit } from './scheduled-job-audit';
import { type ScheduledJobPatch, ScheduledJobsStore } from './scheduled-jobs.store';
import { cronChecked, toScheduledJobView } from './scheduled-job.view';

/**
 * A new schedule for the same job, checked as on create (readable, firing, not more often than
 * HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS); the next firing counts from now.
 */
@Injectable()
export class UpdateScheduleUseCase {
  constructor(
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
  ) {}

  @RpcHandler(ScheduledJobsRpc.UpdateSchedule)
  async execute(dto: UpdateScheduleRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    const s = await ScheduledJobsStore.find(this.ds.manager, dto.namespace, dto.scheduledJobId);
    const now = new Date();
    const nextRunAt = cronChecked(() =>
      firstRunChecked(dto.schedule, now, this.config.HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS),
    );
    const patch: ScheduledJobPatch = { schedule: dto.schedule, nextRunAt, updatedAt: now };
    Object.assign(s, patch);
    await this.outbox.transaction(async (m) => {
      if (!(await ScheduledJobsStore.update(m, s.id, patch))) throw new ScheduledJobNotFoundError(s.id, s.namespace);
      await recordScheduledJobAudit(this.outbox, m, ctx, s, 'scheduled_job.update_schedule');
    });
    return toScheduledJobView(s);
  }
}
