import { IsInt, Matches, Max, Min } from 'class-validator';
import { OBJECT_ID_PATTERN } from '@hub/contracts';
import { type JobOwnerRef } from './jobs-rpc.dto';
import { type JobStage } from './jobs.enums';

/**
 * `jobs.job.endpoint`: where the gateway sends a request for `<job_id>--<port>.{jobs_domain}`
 * (issue 25). 404 when the job is missing or does not expose that port.
 */
export class JobEndpointRpc {
  @Matches(OBJECT_ID_PATTERN, { message: 'jobId must be a 24-character hex id' })
  jobId!: string;

  @IsInt()
  @Min(1)
  @Max(65535)
  port!: number;
}

export interface JobEndpointAnswer {
  /** The job's namespace: callers need read access to it, unless the port is public. */
  owner: JobOwnerRef;
  stage: JobStage;
  /** In `expose.portsPublic`: anyone may call it. */
  public: boolean;
  /** Where the port listens now; null while the job does not run (or its runner gives no address). */
  target: { host: string; port: number } | null;
}
