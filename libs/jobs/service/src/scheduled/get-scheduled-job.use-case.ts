import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ScheduledJobRefRpc, type ScheduledJobView } from '@hub/jobs-contract';
import { JOBS_DS } from '../jobs.di';
import { ScheduledJobsStore } from './scheduled-jobs.store';
import { toScheduledJobView } from './scheduled-job.view';

@Injectable()
export class GetScheduledJobUseCase {
  constructor(@InjectDataSource(JOBS_DS) private readonly ds: DataSource) {}

  async execute(dto: ScheduledJobRefRpc): Promise<ScheduledJobView> {
    return toScheduledJobView(await ScheduledJobsStore.find(this.ds.manager, dto.namespace, dto.scheduledJobId));
  }
}
