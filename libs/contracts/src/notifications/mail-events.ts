import { IsIn, IsISO8601, IsOptional, IsString, Length, Matches } from 'class-validator';
import { JOB_STAGES, type JobStage } from '../enums';
import { NAME_PATTERN, OBJECT_ID_PATTERN } from '../names';
import { event } from '../bus/descriptors';

/**
 * `hub.webhooks.webhook.suspended` (published by the webhooks service): a webhook was moved to
 * suspended-after-failure. The minimal payload notifications needs; the webhooks issue may add fields.
 */
export class WebhookSuspendedEvent {
  @Matches(OBJECT_ID_PATTERN)
  webhookId!: string;

  /** The user (or organization) that owns the webhook. */
  @Matches(NAME_PATTERN)
  ownerName!: string;

  @IsOptional() @IsIn(['user', 'org'])
  ownerType?: 'user' | 'org';

  @IsOptional() @IsString() @Length(0, 2048)
  url?: string;

  @IsOptional() @IsString() @Length(0, 1000)
  reason?: string;

  @IsISO8601()
  suspendedAt!: string;
}

/** `hub.jobs.job.status` (published by the jobs service): a job moved to another stage. */
export class JobStatusEvent {
  @IsString() @Length(1, 100)
  jobId!: string;

  /** The user who owns the job (its namespace). */
  @Matches(NAME_PATTERN)
  ownerName!: string;

  @IsIn(JOB_STAGES)
  stage!: JobStage;

  @IsOptional() @IsString() @Length(0, 1000)
  message?: string;

  @IsISO8601()
  at!: string;
}

export const NotificationMailEvents = {
  WebhookSuspended: event<WebhookSuspendedEvent>('hub.webhooks.webhook.suspended', WebhookSuspendedEvent),
  JobStatus: event<JobStatusEvent>('hub.jobs.job.status', JobStatusEvent),
} as const;
