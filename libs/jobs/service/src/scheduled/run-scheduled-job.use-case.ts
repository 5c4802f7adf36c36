import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type JobView, type ScheduledJobRefRpc } from '@hub/jobs-contract';
import { PreviousRunActiveError } from '../jobs/jobs.errors';
import { FireScheduledJobUseCase } from './fire-scheduled-job.use-case';
import { ScheduledJobStore } from './scheduled-job-store';

/** Run now: fires once outside the schedule (409 while the previous run is active and concurrency is off). */
@Injectable()
export class RunScheduledJobUseCase {
  constructor(
    private readonly store: ScheduledJobStore,
    private readonly fire: FireScheduledJobUseCase,
  ) {}

  async execute(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<JobView> {
    const s = await this.store.find(dto.namespace, dto.scheduledJobId);
    const job = await this.fire.execute(s, ctx);
    if (!job) throw new PreviousRunActiveError(s.id);
    await this.store.record(s, 'scheduled_job.run', ctx);
    return job;
  }
}
