import { Injectable } from '@nestjs/common';
import { type JobMetricsAnswer, type JobRefRpc } from '@hub/contracts';
import { JobStore } from './job-store';

/** The job's stage and its last resource sample, if any (the metrics stream polls this). */
@Injectable()
export class GetJobMetricsUseCase {
  constructor(private readonly store: JobStore) {}

  async execute(dto: JobRefRpc): Promise<JobMetricsAnswer> {
    const j = await this.store.find(dto.namespace, dto.jobId);
    return { stage: j.stage, ...(j.metrics ? { sample: j.metrics } : {}) };
  }
}
