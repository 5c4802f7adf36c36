import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ListScheduledJobsRpc, ScheduledJobsRpc, type ScheduledJobView } from '@hub/jobs-contract';
import { JOBS_DS } from '../jobs.di';
import { ScheduledJobsStore } from './scheduled-jobs.store';
import { toScheduledJobView } from './scheduled-job.view';
import { RpcHandler } from '@hub/messaging';

@Injectable()
export class ListScheduledJobsUseCase {
  constructor(@InjectDataSource(JOBS_DS) private readonly ds: DataSource) {}

  @RpcHandler(ScheduledJobsRpc.List)
  async execute(dto: ListScheduledJobsRpc): Promise<ScheduledJobView[]> {
    return (await ScheduledJobsStore.list(this.ds.manager, dto.namespace)).map(toScheduledJobView);
  }
}
