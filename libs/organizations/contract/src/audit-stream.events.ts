import { IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { event, NAME_PATTERN, OBJECT_ID_PATTERN } from '@hub/contracts';

/**
 * `hub.organizations.audit-stream.health`: an organization's audit stream turned failing (it failed
 * for longer than HUB_AUDIT_STREAM_FAILING_AFTER_S) or recovered. The notifications service mails
 * the organization's admins; any internal subscriber may act on it too.
 */
export class AuditStreamHealthEvent {
  @Matches(NAME_PATTERN)
  organization!: string;

  @Matches(OBJECT_ID_PATTERN)
  streamId!: string;

  /** The destination's kind (https, s3, splunk, datadog), for the mail. */
  @IsString()
  @MaxLength(20)
  type!: string;

  @IsIn(['failing', 'active'])
  state!: 'failing' | 'active';

  /** The last error when failing. */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  error?: string | null;

  @IsISO8601()
  at!: string;
}

export const AuditStreamEvents = {
  Health: event<AuditStreamHealthEvent>('hub.organizations.audit-stream.health', AuditStreamHealthEvent),
} as const;
