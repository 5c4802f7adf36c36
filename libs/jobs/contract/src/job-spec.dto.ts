import { Matches, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { OBJECT_ID_PATTERN } from '@hub/contracts';
import { type CreateJobDto } from './create-job.dto';
import { JobUserRef } from './jobs-rpc.dto';

/**
 * `jobs.job.spec`: the spec of a job `reader` may read (their own namespace, or an organization
 * they belong to), for a webhook's `jobSourceId` (decision 0501). A job they cannot read is a 404,
 * the same as a missing one.
 */
export class JobSpecRpc {
  @Matches(OBJECT_ID_PATTERN, { message: 'jobSourceId must be a 24-character hex id' })
  jobId!: string;

  @ValidateNested()
  @Type(() => JobUserRef)
  reader!: JobUserRef;
}

/** The 4.6 job object of the source job, without `secrets`: their values never leave the jobs service. */
export interface JobSpecAnswer {
  namespace: string;
  spec: Omit<CreateJobDto, 'secrets'>;
}
