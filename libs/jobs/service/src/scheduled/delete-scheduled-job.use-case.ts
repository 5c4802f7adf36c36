import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type ScheduledJobRefRpc } from '@hub/jobs-contract';
import { ScheduledJobStore } from './scheduled-job-store';

/** Removes the schedule; jobs it already started go on. */
@Injectable()
export class DeleteScheduledJobUseCase {
  constructor(private readonly store: ScheduledJobStore) {}

  async execute(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<{ deleted: true }> {
    await this.store.delete(await this.store.find(dto.namespace, dto.scheduledJobId), ctx);
    return { deleted: true };
  }
}
