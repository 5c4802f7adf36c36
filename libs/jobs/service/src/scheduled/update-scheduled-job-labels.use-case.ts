import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { ScheduledJobsRpc, type ScheduledJobView, type UpdateScheduledJobLabelsRpc } from '@hub/jobs-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { JOBS_DS } from '../jobs.di';
import { ScheduledJobNotFoundError } from '../jobs/jobs.errors';
import { recordScheduledJobAudit } from './scheduled-job-audit';
import { type ScheduledJobPatch, ScheduledJobsStore } from './scheduled-jobs.store';
import { toScheduledJobView } from './scheduled-job.view';

/** Replaces the labels in `jobSpec` (what every later run carries); runs already started keep theirs. */
@Injectable()
export class UpdateScheduledJobLabelsUseCase {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
  ) {}

  @RpcHandler(ScheduledJobsRpc.UpdateLabels)
  async execute(dto: UpdateScheduledJobLabelsRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    const s = await ScheduledJobsStore.find(this.ds.manager, dto.namespace, dto.scheduledJobId);
    const patch: ScheduledJobPatch = { jobSpec: { ...s.jobSpec, labels: dto.labels }, updatedAt: new Date() };
    Object.assign(s, patch);
    await this.outbox.transaction(async (m) => {
      if (!(await ScheduledJobsStore.update(m, s.id, patch))) throw new ScheduledJobNotFoundError(s.id, s.namespace);
      await recordScheduledJobAudit(this.outbox, m, ctx, s, 'scheduled_job.update_labels');
    });
    return toScheduledJobView(s);
  }
}
