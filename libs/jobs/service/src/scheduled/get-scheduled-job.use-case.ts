import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ScheduledJobRefRpc, ScheduledJobsRpc, type ScheduledJobView } from '@hub/jobs-contract';
import { JOBS_DS } from '../jobs.di';
import { ScheduledJobsStore } from './scheduled-jobs.store';
import { toScheduledJobView } from './scheduled-job.view';
import { RpcHandler } from '@hub/messaging';

@Injectable()
export class GetScheduledJobUseCase {
  constructor(@InjectDataSource(JOBS_DS) private readonly ds: DataSource) {}

  @RpcHandler(ScheduledJobsRpc.Get)
  async execute(dto: ScheduledJobRefRpc): Promise<ScheduledJobView> {
    return toScheduledJobView(await ScheduledJobsStore.find(this.ds.manager, dto.namespace, dto.scheduledJobId));
  }
}
