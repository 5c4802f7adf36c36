import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { ClosedSchema } from '@hub/contracts';

export const LOG_STATUSES = ['succeeded', 'failed', 'pending'] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];

/**
 * Filters of the delivery log search (decision 0502), all optional and combined with AND. Each is
 * served by an index ending in the page order, so a page stays an index range read.
 */
export class WebhookLogFilterDto {
  @ApiPropertyOptional({
    enum: LOG_STATUSES,
    description:
      'succeeded: a 2xx answer; failed: anything else; pending: attempts of a delivery still queued for another try',
  })
  @IsOptional()
  @IsIn(LOG_STATUSES, { message: `status must be one of ${LOG_STATUSES.join(', ')}` })
  status?: LogStatus;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 599,
    description: 'the HTTP status the receiver answered; 0: no answer (refused, timed out, blocked)',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'httpStatus must be an integer 0..599' })
  @Min(0, { message: 'httpStatus must be an integer 0..599' })
  @Max(599, { message: 'httpStatus must be an integer 0..599' })
  httpStatus?: number;

  @ApiPropertyOptional({ example: 'repo.content.update', description: 'the event as `<scope>.<action>`, exactly' })
  @IsOptional()
  @IsString({ message: 'event must be a string' })
  @Matches(/^[A-Za-z0-9_.-]{1,200}$/, { message: 'event must be scope.action (letters, digits, . _ -; at most 200)' })
  event?: string;

  @ApiPropertyOptional({ example: 'alice/tiny-model', description: "the repo's full name, exactly" })
  @IsOptional()
  @IsString({ message: 'repo must be a string' })
  @Length(1, 200, { message: 'repo must be 1..200 characters' })
  repo?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'attempts logged at or after this time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time' })
  since?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'attempts logged before this time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 date-time' })
  until?: string;

  @ApiPropertyOptional({
    description: 'words of the payload (all of them; whole words, case-insensitive, in its first 64 KB)',
  })
  @IsOptional()
  @IsString({ message: 'q must be a string' })
  @Length(1, 200, { message: 'q must be 1..200 characters' })
  q?: string;
}

/** The filter names, in the order they are carried into the next page's link. */
export const LOG_FILTER_KEYS = ['status', 'httpStatus', 'event', 'repo', 'since', 'until', 'q'] as const;

@ClosedSchema()
export class ReplayAnswer {
  @ApiProperty({ description: 'HTTP status the receiver answered the replay with (0 when it could not be reached)' })
  status!: number;
}

export const DELIVERY_TRIGGERS = ['scheduled', 'manual', 'replay', 'recovery', 'test'] as const;
export type DeliveryTrigger = (typeof DELIVERY_TRIGGERS)[number];

/** One attempt in the delivery log (architecture section 7); our extension, for finding a logId. */
@ClosedSchema()
export class WebhookLogView {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'the webhook-id header: stable across the retries of one delivery' }) deliveryId!: string;
  @ApiProperty({ enum: DELIVERY_TRIGGERS }) trigger!: DeliveryTrigger;
  @ApiProperty() attempt!: number;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'secret redacted' })
  requestHeaders!: Record<string, string>;
  @ApiProperty({ type: 'object', additionalProperties: true }) payload!: Record<string, unknown>;
  @ApiProperty({ type: Number, nullable: true }) status!: number | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) responseHeaders!: Record<string, string>;
  @ApiProperty({ description: 'truncated at 20 KB' }) responseBody!: string;
  @ApiProperty() durationMs!: number;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}
