import { type RequestContext } from '@hub/contracts';
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
  UpdateJobLabelsRpc,
} from '@hub/jobs-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { CancelJobUseCase } from './cancel-job.use-case';
import { CreateJobUseCase } from './create-job.use-case';
import { DuplicateJobUseCase } from './duplicate-job.use-case';
import { GetJobMetricsUseCase } from './get-job-metrics.use-case';
import { GetJobSpecUseCase } from './get-job-spec.use-case';
import { GetJobUseCase } from './get-job.use-case';
import { ListJobsUseCase } from './list-jobs.use-case';
import { ReadJobLogsUseCase } from './read-job-logs.use-case';
import { UpdateJobLabelsUseCase } from './update-job-labels.use-case';

@RpcController()
export class JobsHandler {
  constructor(
    private readonly createJob: CreateJobUseCase,
    private readonly getJob: GetJobUseCase,
    private readonly listJobs: ListJobsUseCase,
    private readonly cancelJob: CancelJobUseCase,
    private readonly duplicateJob: DuplicateJobUseCase,
    private readonly updateJobLabels: UpdateJobLabelsUseCase,
    private readonly getJobMetrics: GetJobMetricsUseCase,
    private readonly readJobLogs: ReadJobLogsUseCase,
    private readonly getJobSpec: GetJobSpecUseCase,
  ) {}

  @RpcHandler(JobsRpc.Create)
  onCreate(dto: CreateJobRpc, ctx: RequestContext): Promise<JobView> {
    return this.createJob.execute(dto, ctx);
  }

  @RpcHandler(JobsRpc.Get)
  onGet(dto: JobRefRpc): Promise<JobView> {
    return this.getJob.execute(dto);
  }

  @RpcHandler(JobsRpc.List)
  onList(dto: ListJobsRpc): Promise<JobPage> {
    return this.listJobs.execute(dto);
  }

  @RpcHandler(JobsRpc.Cancel)
  onCancel(dto: JobRefRpc, ctx: RequestContext): Promise<JobView> {
    return this.cancelJob.execute(dto, ctx);
  }

  @RpcHandler(JobsRpc.Duplicate)
  onDuplicate(dto: DuplicateJobRpc, ctx: RequestContext): Promise<JobView> {
    return this.duplicateJob.execute(dto, ctx);
  }

  @RpcHandler(JobsRpc.UpdateLabels)
  onUpdateLabels(dto: UpdateJobLabelsRpc, ctx: RequestContext): Promise<JobView> {
    return this.updateJobLabels.execute(dto, ctx);
  }

  @RpcHandler(JobsRpc.Metrics)
  onMetrics(dto: JobRefRpc): Promise<JobMetricsAnswer> {
    return this.getJobMetrics.execute(dto);
  }

  @RpcHandler(JobsRpc.Logs)
  onLogs(dto: JobLogsRpc): Promise<JobLogsChunk> {
    return this.readJobLogs.execute(dto);
  }

  @RpcHandler(JobsRpc.Spec)
  onSpec(dto: JobSpecRpc, ctx: RequestContext): Promise<JobSpecAnswer> {
    return this.getJobSpec.execute(dto, ctx);
  }
}
