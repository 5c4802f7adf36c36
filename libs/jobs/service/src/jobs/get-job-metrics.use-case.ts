import { Injectable } from '@nestjs/common';
import { type JobMetricsAnswer, type JobRefRpc } from '@hub/jobs-contract';
import { completeSample } from './job-metrics';
import { JobStore } from './job-store';

/**
 * The job's stage and, while it runs, its last resource sample in full (zeros until the runner has
 * one, and always on a runner without figures): the metrics stream polls this.
 */
@Injectable()
export class GetJobMetricsUseCase {
  constructor(private readonly store: JobStore) {}

  async execute(dto: JobRefRpc): Promise<JobMetricsAnswer> {
    const j = await this.store.find(dto.namespace, dto.jobId);
    if (j.stage !== 'RUNNING') return { stage: j.stage };
    return { stage: j.stage, sample: completeSample(j.metrics, j.spec.flavor, new Date()) };
  }
}
