import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type JobMetricsAnswer, type JobRefRpc, JobsRpc } from '@hub/jobs-contract';
import { completeSample } from './job-metrics';
import { JOBS_DS } from '../jobs.di';
import { JobsStore } from './jobs.store';
import { RpcHandler } from '@hub/messaging';

/**
 * The job's stage and, while it runs, its last resource sample in full (zeros until the runner has
 * one, and always on a runner without figures): the metrics stream polls this.
 */
@Injectable()
export class GetJobMetricsUseCase {
  constructor(@InjectDataSource(JOBS_DS) private readonly ds: DataSource) {}

  @RpcHandler(JobsRpc.Metrics)
  async execute(dto: JobRefRpc): Promise<JobMetricsAnswer> {
    const j = await JobsStore.find(this.ds.manager, dto.namespace, dto.jobId);
    if (j.stage !== 'RUNNING') return { stage: j.stage };
    return { stage: j.stage, sample: completeSample(j.metrics, j.spec.flavor, new Date()) };
  }
}
