import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { NAME_PATTERN, OBJECT_ID_PATTERN } from '@hub/contracts';
import { CreateJobDto, IsJobLabels, JOB_ENV_KEY, JOB_LIMITS } from './create-job.dto';
import { JOB_STAGES, type JobStage } from './jobs.enums';
import { JobInitiatorRef } from './jobs.events';
import { IsStringMap } from './string-map.validator';

export class JobOwnerRef {
  @Matches(OBJECT_ID_PATTERN)
  id!: string;

  @Matches(NAME_PATTERN)
  name!: string;

  @IsIn(['user', 'org'])
  type!: 'user' | 'org';
}

export class JobUserRef {
  @Matches(OBJECT_ID_PATTERN)
  id!: string;

  @IsString()
  @Length(1, 100)
  name!: string;
}

/**
 * `jobs.job.create`: start a job in a namespace. The gateway passes the owner it resolved and the
 * caller; the webhooks service passes `initiator {type: 'webhook', id}` and the `WEBHOOK_*`
 * variables in `environment` (merged over the spec's environment).
 */
export class CreateJobRpc {
  @Matches(NAME_PATTERN)
  namespace!: string;

  @ValidateNested()
  @Type(() => CreateJobDto)
  spec!: CreateJobDto;

  @ValidateNested()
  @Type(() => JobInitiatorRef)
  initiator!: JobInitiatorRef;

  @IsOptional()
  @IsStringMap({ key: JOB_ENV_KEY, maxEntries: JOB_LIMITS.mapEntries, maxValueLength: JOB_LIMITS.valueLength * 16 })
  environment?: Record<string, string>;

  /** Who owns the namespace; absent: the namespace is taken as a user of that name (webhook callers know no more). */
  @IsOptional()
  @ValidateNested()
  @Type(() => JobOwnerRef)
  owner?: JobOwnerRef;

  @IsOptional()
  @ValidateNested()
  @Type(() => JobUserRef)
  createdBy?: JobUserRef;
}

export class JobRefRpc {
  @Matches(NAME_PATTERN)
  namespace!: string;

  @Matches(OBJECT_ID_PATTERN, { message: 'jobId must be a 24-character hex id' })
  jobId!: string;
}

export class DuplicateJobRpc extends JobRefRpc {
  @ValidateNested()
  @Type(() => JobUserRef)
  createdBy!: JobUserRef;
}

export class ListJobsRpc {
  @Matches(NAME_PATTERN)
  namespace!: string;

  /** Any of these stages (none: every stage but DELETED). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(JOB_STAGES.length)
  @IsIn(JOB_STAGES, { each: true })
  stages?: JobStage[];

  /** `key=value` pairs, all of which must match. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  labels?: string[];

  /** Opaque: the id of the last job of the previous page. */
  @IsOptional()
  @Matches(OBJECT_ID_PATTERN, { message: 'cursor is not one this server gave out' })
  cursor?: string;

  @IsInt()
  @Min(1)
  @Max(1000)
  limit!: number;
}

export class UpdateJobLabelsRpc extends JobRefRpc {
  @IsJobLabels()
  labels!: Record<string, string>;
}

export class JobLogsRpc extends JobRefRpc {
  /** Lines after this sequence number (0: from the start). */
  @IsInt()
  @Min(0)
  afterSeq!: number;

  /** Only the last N lines (first call of a stream). */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100_000)
  tail?: number;
}
