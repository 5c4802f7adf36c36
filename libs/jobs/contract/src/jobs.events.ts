import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Length, Matches, Min, ValidateNested } from 'class-validator';
import { event, JOB_INITIATOR_TYPES, JOB_STAGES, type JobStage, NAME_PATTERN, OBJECT_ID_PATTERN } from '@hub/contracts';

// The jobs service's events (decision 0019: a feature's events sit in its contract).

/** Who started a job: a user, a webhook, a scheduled job (`jobs.job.create`'s initiator too). */
export class JobInitiatorRef {
  @IsIn(JOB_INITIATOR_TYPES)
  type!: (typeof JOB_INITIATOR_TYPES)[number];

  @IsString()
  @Length(1, 100)
  id!: string;

  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;
}

/** `hub.jobs.job.status`: a job changed stage (every transition, through the outbox). */
export class JobStatusEvent {
  @Matches(OBJECT_ID_PATTERN)
  jobId!: string;

  @Matches(NAME_PATTERN)
  namespace!: string;

  @Matches(OBJECT_ID_PATTERN)
  ownerId!: string;

  /** The user who started the job (the one job_status mails go to). */
  @IsOptional()
  @Matches(NAME_PATTERN)
  createdByName?: string;

  /** That user's id (from 2026-11-24; older events name the user only). */
  @IsOptional()
  @Matches(OBJECT_ID_PATTERN)
  createdById?: string;

  @IsIn(JOB_STAGES)
  stage!: JobStage;

  @IsOptional()
  @IsString()
  message?: string | null;

  @IsInt()
  @Min(0)
  failureCount!: number;

  @IsISO8601()
  at!: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => JobInitiatorRef)
  initiator?: JobInitiatorRef;
}

/** Every event the jobs service publishes. */
export const JobsEvents = {
  JobStatus: event<JobStatusEvent>('hub.jobs.job.status', JobStatusEvent),
} as const;
