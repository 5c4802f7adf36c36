import { Inject, Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type ScheduledJobView, type UpdateScheduleRpc } from '@hub/jobs-contract';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG } from '../jobs.di';
import { firstRunChecked } from './cron';
import { ScheduledJobStore } from './scheduled-job-store';
import { cronChecked, toScheduledJobView } from './scheduled-job.view';

/**
 * A new schedule for the same job, checked as on create (readable, firing, not more often than
 * HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS); the next firing counts from now.
 */
@Injectable()
export class UpdateScheduleUseCase {
  constructor(
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    private readonly store: ScheduledJobStore,
  ) {}

  async execute(dto: UpdateScheduleRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    const s = await this.store.find(dto.namespace, dto.scheduledJobId);
    const now = new Date();
    const nextRunAt = cronChecked(() =>
      firstRunChecked(dto.schedule, now, this.config.HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS),
    );
    await this.store.update(
      s,
      { schedule: dto.schedule, nextRunAt, updatedAt: now },
      'scheduled_job.update_schedule',
      ctx,
    );
    return toScheduledJobView(s);
  }
}
