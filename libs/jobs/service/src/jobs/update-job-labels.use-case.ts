import { Inject, Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type JobView, type UpdateJobLabelsRpc } from '@hub/jobs-contract';
import { Outbox } from '@hub/messaging';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG } from '../jobs.di';
import { recordJobAudit } from './job-events';
import { ACTIVE_STAGES, JobStore } from './job-store';
import { toJobView, viewSettings } from './job.view';

/** Replaces a job's labels, in any stage, with its audit event. */
@Injectable()
export class UpdateJobLabelsUseCase {
  constructor(
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    @Inject(Outbox) private readonly outbox: Outbox,
    private readonly store: JobStore,
  ) {}

  async execute(dto: UpdateJobLabelsRpc, ctx: RequestContext): Promise<JobView> {
    const j = await this.store.find(dto.namespace, dto.jobId);
    const updated = await this.store.transition(
      j.id,
      [j.stage, ...ACTIVE_STAGES, 'COMPLETED', 'ERROR', 'CANCELED'],
      { labels: dto.labels },
      (m, job) =>
        recordJobAudit(this.outbox, m, ctx, job, 'jobs.update_labels', `Labels of job ${job.id} updated`, {
          labels: dto.labels,
        }),
    );
    return toJobView(updated ?? j, viewSettings(this.config));
  }
}
