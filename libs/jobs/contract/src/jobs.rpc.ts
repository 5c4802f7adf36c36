import { rpc } from '@hub/contracts';
import { CreateJobRpc, DuplicateJobRpc, JobLogsRpc, JobRefRpc, ListJobsRpc, UpdateJobLabelsRpc } from './jobs-rpc.dto';
import { type JobEndpointAnswer, JobEndpointRpc } from './job-endpoint.dto';
import { type JobSpecAnswer, JobSpecRpc } from './job-spec.dto';
import {
  CreateScheduledJobRpc,
  ListScheduledJobsRpc,
  ScheduledJobRefRpc,
  type ScheduledJobView,
  UpdateScheduledJobLabelsRpc,
  UpdateScheduleRpc,
} from './scheduled-jobs.dto';
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
  /** The spec of a job the reader may read (webhooks' jobSourceId). */
  Spec: rpc<JobSpecRpc, JobSpecAnswer>('jobs.job.spec', JobSpecRpc),
  /** Where an exposed port of a running job answers, and who may call it (the gateway's job proxy). */
  Endpoint: rpc<JobEndpointRpc, JobEndpointAnswer>('jobs.job.endpoint', JobEndpointRpc),
} as const;

/** Scheduled jobs: each firing runs `jobSpec` as a job with initiator `{type: 'scheduled-job', id}`. */
export const ScheduledJobsRpc = {
  Create: rpc<CreateScheduledJobRpc, ScheduledJobView>('jobs.scheduled-job.create', CreateScheduledJobRpc),
  List: rpc<ListScheduledJobsRpc, ScheduledJobView[]>('jobs.scheduled-job.list', ListScheduledJobsRpc),
  Get: rpc<ScheduledJobRefRpc, ScheduledJobView>('jobs.scheduled-job.get', ScheduledJobRefRpc),
  Delete: rpc<ScheduledJobRefRpc, { deleted: true }>('jobs.scheduled-job.delete', ScheduledJobRefRpc),
  Suspend: rpc<ScheduledJobRefRpc, ScheduledJobView>('jobs.scheduled-job.suspend', ScheduledJobRefRpc),
  Resume: rpc<ScheduledJobRefRpc, ScheduledJobView>('jobs.scheduled-job.resume', ScheduledJobRefRpc),
  /** Runs now; 409 with concurrency false while the previous run is still going. */
  Run: rpc<ScheduledJobRefRpc, JobView>('jobs.scheduled-job.run', ScheduledJobRefRpc),
  /** A new schedule (same bounds as on create); the next firing is computed from now. */
  UpdateSchedule: rpc<UpdateScheduleRpc, ScheduledJobView>('jobs.scheduled-job.update-schedule', UpdateScheduleRpc),
  /** Replaces `jobSpec.labels`: the labels every later run carries. */
  UpdateLabels: rpc<UpdateScheduledJobLabelsRpc, ScheduledJobView>(
    'jobs.scheduled-job.update-labels',
    UpdateScheduledJobLabelsRpc,
  ),
} as const;
