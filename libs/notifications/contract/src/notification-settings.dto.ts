import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsISO8601, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';

/** The boolean members of spec 4.1's notifications object. */
export const NOTIFICATION_SETTING_KEYS = [
  'announcements',
  'arxiv_paper_activity',
  'daily_papers_digest',
  'discussions_participating',
  'discussions_watched',
  'gated_user_access_request',
  'inference_endpoint_status',
  'job_status',
  'launch_autonlp',
  'launch_spaces',
  'launch_prepaid_credits',
  'launch_training_cluster',
  'org_request',
  'org_suggestions',
  'org_verified_suggestions',
  'org_suggestions_to_create',
  'posts_participating',
  'user_follows',
  'secret_detected',
  'web_discussions_participating',
  'web_discussions_watched',
  'web_posts_participating',
  'api_inference_sunset',
  'locked_out',
  'repo_release',
] as const;
export type NotificationSettingKey = (typeof NOTIFICATION_SETTING_KEYS)[number];
export const PREPAID_AMOUNT_MAX = 24;

const bool = (): PropertyDecorator => {
  const a = IsOptional();
  const b = IsBoolean({ message: ({ property }) => `notifications.${property} must be true or false` });
  const c = ApiPropertyOptional({ type: Boolean });
  return (target, key) => {
    a(target, key);
    b(target, key);
    c(target, key);
  };
};

export class NotificationSettingsValues {
  @bool() announcements?: boolean;
  @bool() arxiv_paper_activity?: boolean;
  @bool() daily_papers_digest?: boolean;
  @bool() discussions_participating?: boolean;
  @bool() discussions_watched?: boolean;
  @bool() gated_user_access_request?: boolean;
  @bool() inference_endpoint_status?: boolean;
  @bool() job_status?: boolean;
  @bool() launch_autonlp?: boolean;
  @bool() launch_spaces?: boolean;
  @bool() launch_prepaid_credits?: boolean;
  @bool() launch_training_cluster?: boolean;
  @bool() org_request?: boolean;
  @bool() org_suggestions?: boolean;
  @bool() org_verified_suggestions?: boolean;
  @bool() org_suggestions_to_create?: boolean;
  @bool() posts_participating?: boolean;
  @bool() user_follows?: boolean;
  @bool() secret_detected?: boolean;
  @bool() web_discussions_participating?: boolean;
  @bool() web_discussions_watched?: boolean;
  @bool() web_posts_participating?: boolean;
  @bool() api_inference_sunset?: boolean;
  @bool() locked_out?: boolean;
  @bool() repo_release?: boolean;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'notifications.product_updates_after must be an ISO 8601 date-time' })
  product_updates_after?: string;
}

/** PATCH /api/settings/notifications body (unknown keys at either level are a 400: see the controller). */
export class UpdateNotificationSettingsDto {
  @ApiProperty({ type: NotificationSettingsValues })
  @IsObject({ message: 'notifications must be an object' })
  @ValidateNested()
  @Type(() => NotificationSettingsValues)
  notifications!: NotificationSettingsValues;

  @ApiPropertyOptional({ maxLength: PREPAID_AMOUNT_MAX, description: 'required when enabling launch_prepaid_credits' })
  @IsOptional()
  @IsString({ message: 'prepaidAmount must be a string' })
  @MaxLength(PREPAID_AMOUNT_MAX, { message: `prepaidAmount must be at most ${PREPAID_AMOUNT_MAX} characters` })
  prepaidAmount?: string;
}

/** GET/PATCH answer: every boolean with its current value (defaults filled in). */
export class NotificationSettingsView {
  @ApiProperty({ type: 'object', additionalProperties: { oneOf: [{ type: 'boolean' }, { type: 'string' }] } })
  notifications!: Record<string, boolean | string>;

  @ApiPropertyOptional({ type: String, nullable: true })
  prepaidAmount!: string | null;
}
