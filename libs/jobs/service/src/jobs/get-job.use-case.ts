import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type JobRefRpc, JobsRpc, type JobView } from '@hub/jobs-contract';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS } from '../jobs.di';
import { JobsStore } from './jobs.store';
import { toJobView, viewSettings } from './job.view';
import { RpcHandler } from '@hub/messaging';

@Injectable()
export class GetJobUseCase {
  constructor(
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
  ) {}

  @RpcHandler(JobsRpc.Get)
  async execute(dto: JobRefRpc): Promise<JobView> {
    return toJobView(await JobsStore.find(this.ds.manager, dto.namespace, dto.jobId), viewSettings(this.config));
  }
}
