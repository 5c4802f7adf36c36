import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type ScheduledJobRefRpc, ScheduledJobsRpc, type ScheduledJobView } from '@hub/jobs-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { JOBS_DS } from '../jobs.di';
import { recordScheduledJobAudit } from './scheduled-job-audit';
import { ScheduledJobsStore } from './scheduled-jobs.store';
import { nextFrom, toScheduledJobView } from './scheduled-job.view';

/** Suspends (`suspend: true`) or resumes a schedule; resuming counts from now, missed firings are not caught up. */
async function setSuspended(
  ds: DataSource,
  outbox: Outbox,
  dto: ScheduledJobRefRpc,
  suspend: boolean,
  ctx: RequestContext,
): Promise<ScheduledJobView> {
  const s = await ScheduledJobsStore.find(ds.manager, dto.namespace, dto.scheduledJobId);
  const now = new Date();
  Object.assign(s, { suspend, updatedAt: now, nextRunAt: suspend ? s.nextRunAt : nextFrom(s.schedule, now) });
  await outbox.transaction(async (m) => {
    await ScheduledJobsStore.save(m, s);
    await recordScheduledJobAudit(outbox, m, ctx, s, suspend ? 'scheduled_job.suspend' : 'scheduled_job.resume');
  });
  return toScheduledJobView(s);
}

/** Suspends a schedule: it fires no more until resumed. */
@Injectable()
export class SuspendScheduledJobUseCase {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
  ) {}

  @RpcHandler(ScheduledJobsRpc.Suspend)
  execute(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    return setSuspended(this.ds, this.outbox, dto, true, ctx);
  }
}

/** Resumes a schedule, counting from now: missed firings are not caught up. */
@Injectable()
export class ResumeScheduledJobUseCase {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
  ) {}

  @RpcHandler(ScheduledJobsRpc.Resume)
  execute(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    return setSuspended(this.ds, this.outbox, dto, false, ctx);
  }
}
