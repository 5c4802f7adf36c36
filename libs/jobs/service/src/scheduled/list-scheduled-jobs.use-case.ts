import { Injectable } from '@nestjs/common';
import { type ListScheduledJobsRpc, type ScheduledJobView } from '@hub/jobs-contract';
import { ScheduledJobStore } from './scheduled-job-store';
import { toScheduledJobView } from './scheduled-job.view';

@Injectable()
export class ListScheduledJobsUseCase {
  constructor(private readonly store: ScheduledJobStore) {}

  async execute(dto: ListScheduledJobsRpc): Promise<ScheduledJobView[]> {
    return (await this.store.list(dto.namespace)).map(toScheduledJobView);
  }
}
