import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type ScheduledJobRefRpc, type ScheduledJobView } from '@hub/jobs-contract';
import { ScheduledJobStore } from './scheduled-job-store';
import { nextFrom, toScheduledJobView } from './scheduled-job.view';

/** Suspends (`suspend: true`) or resumes a schedule; resuming counts from now, missed firings are not caught up. */
@Injectable()
export class SuspendScheduledJobUseCase {
  constructor(private readonly store: ScheduledJobStore) {}

  async execute(dto: ScheduledJobRefRpc, suspend: boolean, ctx: RequestContext): Promise<ScheduledJobView> {
    const s = await this.store.find(dto.namespace, dto.scheduledJobId);
    const now = new Date();
    Object.assign(s, { suspend, updatedAt: now, nextRunAt: suspend ? s.nextRunAt : nextFrom(s.schedule, now) });
    await this.store.save(s, suspend ? 'scheduled_job.suspend' : 'scheduled_job.resume', ctx);
    return toScheduledJobView(s);
  }
}
