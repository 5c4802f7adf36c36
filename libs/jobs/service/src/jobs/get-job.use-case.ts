import { Inject, Injectable } from '@nestjs/common';
import { type JobRefRpc, type JobView } from '@hub/jobs-contract';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG } from '../jobs.di';
import { JobStore } from './job-store';
import { toJobView, viewSettings } from './job.view';

@Injectable()
export class GetJobUseCase {
  constructor(
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    private readonly store: JobStore,
  ) {}

  async execute(dto: JobRefRpc): Promise<JobView> {
    return toJobView(await this.store.find(dto.namespace, dto.jobId), viewSettings(this.config));
  }
}
