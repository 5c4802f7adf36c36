import { type RequestContext } from '@hub/contracts';
import {
  CreateScheduledJobRpc,
  type JobView,
  ListScheduledJobsRpc,
  ScheduledJobRefRpc,
  ScheduledJobsRpc,
  type ScheduledJobView,
  UpdateScheduledJobLabelsRpc,
  UpdateScheduleRpc,
} from '@hub/jobs-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { CreateScheduledJobUseCase } from './create-scheduled-job.use-case';
import { DeleteScheduledJobUseCase } from './delete-scheduled-job.use-case';
import { GetScheduledJobUseCase } from './get-scheduled-job.use-case';
import { ListScheduledJobsUseCase } from './list-scheduled-jobs.use-case';
import { RunScheduledJobUseCase } from './run-scheduled-job.use-case';
import { SuspendScheduledJobUseCase } from './suspend-scheduled-job.use-case';
import { UpdateScheduleUseCase } from './update-schedule.use-case';
import { UpdateScheduledJobLabelsUseCase } from './update-scheduled-job-labels.use-case';

@RpcController()
export class ScheduledJobsHandler {
  constructor(
    private readonly createScheduledJob: CreateScheduledJobUseCase,
    private readonly listScheduledJobs: ListScheduledJobsUseCase,
    private readonly getScheduledJob: GetScheduledJobUseCase,
    private readonly deleteScheduledJob: DeleteScheduledJobUseCase,
    private readonly suspendScheduledJob: SuspendScheduledJobUseCase,
    private readonly runScheduledJob: RunScheduledJobUseCase,
    private readonly updateSchedule: UpdateScheduleUseCase,
    private readonly updateLabels: UpdateScheduledJobLabelsUseCase,
  ) {}

  @RpcHandler(ScheduledJobsRpc.Create)
  onCreate(dto: CreateScheduledJobRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    return this.createScheduledJob.execute(dto, ctx);
  }

  @RpcHandler(ScheduledJobsRpc.List)
  onList(dto: ListScheduledJobsRpc): Promise<ScheduledJobView[]> {
    return this.listScheduledJobs.execute(dto);
  }

  @RpcHandler(ScheduledJobsRpc.Get)
  onGet(dto: ScheduledJobRefRpc): Promise<ScheduledJobView> {
    return this.getScheduledJob.execute(dto);
  }

  @RpcHandler(ScheduledJobsRpc.Delete)
  onDelete(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<{ deleted: true }> {
    return this.deleteScheduledJob.execute(dto, ctx);
  }

  @RpcHandler(ScheduledJobsRpc.Suspend)
  onSuspend(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    return this.suspendScheduledJob.execute(dto, true, ctx);
  }

  @RpcHandler(ScheduledJobsRpc.Resume)
  onResume(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    return this.suspendScheduledJob.execute(dto, false, ctx);
  }

  @RpcHandler(ScheduledJobsRpc.Run)
  onRun(dto: ScheduledJobRefRpc, ctx: RequestContext): Promise<JobView> {
    return this.runScheduledJob.execute(dto, ctx);
  }

  @RpcHandler(ScheduledJobsRpc.UpdateSchedule)
  onUpdateSchedule(dto: UpdateScheduleRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    return this.updateSchedule.execute(dto, ctx);
  }

  @RpcHandler(ScheduledJobsRpc.UpdateLabels)
  onUpdateLabels(dto: UpdateScheduledJobLabelsRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    return this.updateLabels.execute(dto, ctx);
  }
}
