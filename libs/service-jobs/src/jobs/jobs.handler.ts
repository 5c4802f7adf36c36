import {
  CreateJobRpc,
  DuplicateJobRpc,
  type JobSpecAnswer,
  JobSpecRpc,
  type JobLogsChunk,
  JobLogsRpc,
  type JobMetricsAnswer,
  type JobPage,
  JobRefRpc,
  JobsRpc,
  type JobView,
  ListJobsRpc,
  type RequestContext,
  UpdateJobLabelsRpc,
} from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { JobSpecUseCase } from './job-spec.use-case';
import { JobsUseCases } from './jobs.use-cases';

@RpcController()
export class JobsHandler {
  constructor(
    private readonly jobs: JobsUseCases,
    private readonly jobSpec: JobSpecUseCase,
  ) {}

  @RpcHandler(JobsRpc.Create)
  onCreate(dto: CreateJobRpc, ctx: RequestContext): Promise<JobView> {
    return this.jobs.create(dto, ctx);
  }

  @RpcHandler(JobsRpc.Get)
  onGet(dto: JobRefRpc): Promise<JobView> {
    return this.jobs.get(dto);
  }

  @RpcHandler(JobsRpc.List)
  onList(dto: ListJobsRpc): Promise<JobPage> {
    return this.jobs.list(dto);
  }

  @RpcHandler(JobsRpc.Cancel)
  onCancel(dto: JobRefRpc, ctx: RequestContext): Promise<JobView> {
    return this.jobs.cancel(dto, ctx);
  }

  @RpcHandler(JobsRpc.Duplicate)
  onDuplicate(dto: DuplicateJobRpc, ctx: RequestContext): Promise<JobView> {
    return this.jobs.duplicate(dto, ctx);
  }

  @RpcHandler(JobsRpc.UpdateLabels)
  onUpdateLabels(dto: UpdateJobLabelsRpc, ctx: RequestContext): Promise<JobView> {
    return this.jobs.updateLabels(dto, ctx);
  }

  @RpcHandler(JobsRpc.Metrics)
  onMetrics(dto: JobRefRpc): Promise<JobMetricsAnswer> {
    return this.jobs.metrics(dto);
  }

  @RpcHandler(JobsRpc.Logs)
  onLogs(dto: JobLogsRpc): Promise<JobLogsChunk> {
    return this.jobs.logs(dto);
  }

  @RpcHandler(JobsRpc.Spec)
  onSpec(dto: JobSpecRpc, ctx: RequestContext): Promise<JobSpecAnswer> {
    return this.jobSpec.execute(dto, ctx);
  }
}
