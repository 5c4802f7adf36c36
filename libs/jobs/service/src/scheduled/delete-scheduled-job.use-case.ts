import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type ScheduledJobRefRpc, ScheduledJobsRpc } from '@hub/jobs-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { JOBS_DS } from '../jobs.di';
import { recordScheduledJobAudit } from './scheduled-job-audit';
import { ScheduledJobsStore } from './scheduled-jobs.store';

/** Removes the schedule; jobs it already started go on. */
@Injectable()
export class DeleteScheduledJobUseCase {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
  ) {}

  @RpcHandler(ScheduledJobsRpc.Delete)
  async execute(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<{ deleted: true }> {
    const s = await ScheduledJobsStore.find(this.ds.manager, dto.namespace, dto.scheduledJobId);
    await this.outbox.transaction(async (m) => {
      await ScheduledJobsStore.delete(m, s.id);
      await recordScheduledJobAudit(this.outbox, m, ctx, s, 'scheduled_job.delete');
    });
    return { deleted: true };
  }
}
