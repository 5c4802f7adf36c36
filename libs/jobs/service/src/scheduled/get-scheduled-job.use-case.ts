import { Injectable } from '@nestjs/common';
import { type ScheduledJobRefRpc, type ScheduledJobView } from '@hub/jobs-contract';
import { ScheduledJobStore } from './scheduled-job-store';
import { toScheduledJobView } from './scheduled-job.view';

@Injectable()
export class GetScheduledJobUseCase {
  constructor(private readonly store: ScheduledJobStore) {}

  async execute(dto: ScheduledJobRefRpc): Promise<ScheduledJobView> {
    return toScheduledJobView(await this.store.find(dto.namespace, dto.scheduledJobId));
  }
}
