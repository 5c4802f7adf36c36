import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { JobsRpc, type JobView, type UpdateJobLabelsRpc } from '@hub/jobs-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS } from '../jobs.di';
import { recordJobAudit } from './job-events';
import { ACTIVE_STAGES, JobsStore } from './jobs.store';
import { toJobView, viewSettings } from './job.view';

/** Replaces a job's labels, in any stage, with its audit event (not a stage change: no status event). */
@Injectable()
export class UpdateJobLabelsUseCase {
  constructor(
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
  ) {}

  @RpcHandler(JobsRpc.UpdateLabels)
  async execute(dto: UpdateJobLabelsRpc, ctx: RequestContext): Promise<JobView> {
    const j = await JobsStore.find(this.ds.manager, dto.namespace, dto.jobId);
    const updated = await this.outbox.transaction(async (m) => {
      const job = await JobsStore.transition(m, j.id, [j.stage, ...ACTIVE_STAGES, 'COMPLETED', 'ERROR', 'CANCELED'], {
        labels: dto.labels,
      });
      if (job)
        await recordJobAudit(this.outbox, m, ctx, job, 'jobs.update_labels', `Labels of job ${job.id} updated`, {
          labels: dto.labels,
        });
      return job;
    });
    return toJobView(updated ?? j, viewSettings(this.config));
  }
}
