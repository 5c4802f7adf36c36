import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';
import { rpc } from '../bus/descriptors';
import { NAME_PATTERN } from '../names';
import { WebhookJobDto } from '../webhooks/webhook-job.dto';

export class JobInitiatorRef {
  @IsIn(['webhook', 'user', 'scheduled-job'])
  type!: 'webhook' | 'user' | 'scheduled-job';

  @IsString()
  id!: string;
}

/**
 * `jobs.job.create`: start a job in a namespace. Kept minimal on purpose (the jobs service owns the
 * rest): the 4.6 job object, who started it, and environment variables added to the job's own.
 */
export class CreateJobRpc {
  @Matches(NAME_PATTERN)
  namespace!: string;

  /** The job to start; absent when `sourceJobId` names a job to copy. */
  @IsOptional() @IsObject() @ValidateNested() @Type(() => WebhookJobDto)
  spec?: WebhookJobDto;

  @IsOptional() @Matches(/^[0-9a-fA-F]{24}$/)
  sourceJobId?: string;

  @ValidateNested() @Type(() => JobInitiatorRef)
  initiator!: JobInitiatorRef;

  @IsObject()
  environment!: Record<string, string>;
}

/** The part of the job view (spec 2.2) a caller of `jobs.job.create` relies on. */
export interface CreatedJobRef {
  id: string;
  [key: string]: unknown;
}

export const JobsRpc = {
  Create: rpc<CreateJobRpc, CreatedJobRef>('jobs.job.create', CreateJobRpc),
} as const;
