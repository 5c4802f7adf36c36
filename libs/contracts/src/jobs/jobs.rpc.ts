import { rpc } from '../bus/descriptors';
import { CreateJobRpc, DuplicateJobRpc, JobLogsRpc, JobRefRpc, ListJobsRpc, UpdateJobLabelsRpc } from './jobs-rpc.dto';
import { type JobLogsChunk, type JobMetricsAnswer, type JobPage, type JobView } from './jobs.views';

/** RPCs of the jobs service. `jobs.job.create` is also what the webhooks service calls. */
export const JobsRpc = {
  Create: rpc<CreateJobRpc, JobView>('jobs.job.create', CreateJobRpc),
  Get: rpc<JobRefRpc, JobView>('jobs.job.get', JobRefRpc),
  List: rpc<ListJobsRpc, JobPage>('jobs.job.list', ListJobsRpc),
  Cancel: rpc<JobRefRpc, JobView>('jobs.job.cancel', JobRefRpc),
  Duplicate: rpc<DuplicateJobRpc, JobView>('jobs.job.duplicate', DuplicateJobRpc),
  UpdateLabels: rpc<UpdateJobLabelsRpc, JobView>('jobs.job.update-labels', UpdateJobLabelsRpc),
  Logs: rpc<JobLogsRpc, JobLogsChunk>('jobs.job.logs', JobLogsRpc),
  Metrics: rpc<JobRefRpc, JobMetricsAnswer>('jobs.job.metrics', JobRefRpc),
} as const;
