import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type ScheduledJobView, type UpdateScheduledJobLabelsRpc } from '@hub/jobs-contract';
import { ScheduledJobStore } from './scheduled-job-store';
import { toScheduledJobView } from './scheduled-job.view';

/** Replaces the labels in `jobSpec` (what every later run carries); runs already started keep theirs. */
@Injectable()
export class UpdateScheduledJobLabelsUseCase {
  constructor(private readonly store: ScheduledJobStore) {}

  async execute(dto: UpdateScheduledJobLabelsRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    const s = await this.store.find(dto.namespace, dto.scheduledJobId);
    await this.store.update(
      s,
      { jobSpec: { ...s.jobSpec, labels: dto.labels }, updatedAt: new Date() },
      'scheduled_job.update_labels',
      ctx,
    );
    return toScheduledJobView(s);
  }
}
