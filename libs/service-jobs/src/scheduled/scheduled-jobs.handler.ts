import {
  CreateScheduledJobRpc,
  type JobView,
  ListScheduledJobsRpc,
  type RequestContext,
  ScheduledJobRefRpc,
  ScheduledJobsRpc,
  type ScheduledJobView,
} from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { ScheduledJobsUseCases } from './scheduled-jobs.use-cases';

@RpcController()
export class ScheduledJobsHandler {
  constructor(private readonly scheduled: ScheduledJobsUseCases) {}

  @RpcHandler(ScheduledJobsRpc.Create)
  onCreate(dto: CreateScheduledJobRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    return this.scheduled.create(dto, ctx);
  }

  @RpcHandler(ScheduledJobsRpc.List)
  onList(dto: ListScheduledJobsRpc): Promise<ScheduledJobView[]> {
    return this.scheduled.list(dto.namespace);
  }

  @RpcHandler(ScheduledJobsRpc.Get)
  onGet(dto: ScheduledJobRefRpc): Promise<ScheduledJobView> {
    return this.scheduled.get(dto);
  }

  @RpcHandler(ScheduledJobsRpc.Delete)
  onDelete(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<{ deleted: true }> {
    return this.scheduled.delete(dto, ctx);
  }

  @RpcHandler(ScheduledJobsRpc.Suspend)
  onSuspend(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    return this.scheduled.setSuspended(dto, true, ctx);
  }

  @RpcHandler(ScheduledJobsRpc.Resume)
  onResume(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    return this.scheduled.setSuspended(dto, false, ctx);
  }

  @RpcHandler(ScheduledJobsRpc.Run)
  onRun(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<JobView> {
    return this.scheduled.runNow(dto, ctx);
  }
}
