import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type JobView, type ScheduledJobRefRpc, ScheduledJobsRpc } from '@hub/jobs-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { JOBS_DS } from '../jobs.di';
import { PreviousRunActiveError } from '../jobs/jobs.errors';
import { FireScheduledJobUseCase } from './fire-scheduled-job.use-case';
import { recordScheduledJobAudit } from './scheduled-job-audit';
import { ScheduledJobsStore } from './scheduled-jobs.store';

/** Run now: fires once outside the schedule (409 while the previous run is active and concurrency is off). */
@Injectable()
export class RunScheduledJobUseCase {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
    private readonly fire: FireScheduledJobUseCase,
  ) {}

  @RpcHandler(ScheduledJobsRpc.Run)
  async execute(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<JobView> {
    const s = await ScheduledJobsStore.find(this.ds.manager, dto.namespace, dto.scheduledJobId);
    const job = await this.fire.execute(s, ctx);
    if (!job) throw new PreviousRunActiveError(s.id);
    await this.outbox.transaction((m) => recordScheduledJobAudit(this.outbox, m, ctx, s, 'scheduled_job.run'));
    return job;
  }
}
