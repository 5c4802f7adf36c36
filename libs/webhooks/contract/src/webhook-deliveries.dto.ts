import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ClosedSchema } from '@hub/contracts';

export const DELIVERY_STATES = ['pending', 'delivered', 'failed', 'dropped'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** At most this many deliveries in one answer (the console asks for those of the last 100 attempts). */
export const MAX_DELIVERIES_LISTED = 100;

/**
 * `GET …/{webhookId}/deliveries` (issue 42 item 6, decision 0804): the webhook's deliveries (one
 * per event), newest first, or the ones named by `ids`. Read-only; a sub-resource, since the
 * delivery log's attempts are spec objects that do not grow fields.
 */
export class WebhookDeliveriesQuery {
  @ApiPropertyOptional({
    type: String,
    description: `comma-separated delivery ids (a log's deliveryId), at most ${MAX_DELIVERIES_LISTED}; ids not of this webhook are left out`,
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.split(',').filter((s) => s.length > 0) : value,
  )
  @IsArray({ message: 'ids must be comma-separated delivery ids' })
  @ArrayMaxSize(MAX_DELIVERIES_LISTED, { message: `ids may name at most ${MAX_DELIVERIES_LISTED} deliveries` })
  @IsString({ each: true, message: 'ids must be comma-separated delivery ids' })
  @MaxLength(64, { each: true, message: 'an id in ids is too long' })
  ids?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_DELIVERIES_LISTED, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: `limit must be an integer 1..${MAX_DELIVERIES_LISTED}` })
  @Min(1, { message: `limit must be an integer 1..${MAX_DELIVERIES_LISTED}` })
  @Max(MAX_DELIVERIES_LISTED, { message: `limit must be an integer 1..${MAX_DELIVERIES_LISTED}` })
  limit?: number;
}

/** One delivery (one event to one webhook) and where its retry schedule stands. */
@ClosedSchema()
export class WebhookDeliveryView {
  @ApiProperty({ description: "the delivery id: the webhook-id header of every attempt, the logs' deliveryId" })
  id!: string;
  @ApiProperty({
    enum: DELIVERY_STATES,
    description:
      "pending: queued for its next attempt; delivered: a 2xx; failed: its retries are used up (or the webhook got suspended, or a recovery's one send failed); dropped: the webhook was disabled or deleted before it went",
  })
  state!: DeliveryState;
  @ApiProperty({ description: 'attempts made by the schedule so far (replays are not counted)' })
  attempts!: number;
  @ApiProperty({
    description:
      'attempts the retry schedule makes at most (HUB_WEBHOOK_RETRY_SCHEDULE has one pause per retry); a recovery sends once more',
  })
  maxAttempts!: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: "when the next attempt is due, while pending (a receiver's Retry-After counts); else null",
  })
  nextAttemptAt!: string | null;
  @ApiProperty({ format: 'date-time', description: 'when the event was queued for this webhook' })
  createdAt!: string;
}
