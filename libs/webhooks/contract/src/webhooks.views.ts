import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ClosedSchema,
  JOB_FLAVORS,
  WATCHED_TYPES,
  type WatchedType,
  WEBHOOK_DOMAINS,
  type WebhookDomain,
} from '@hub/contracts';

export const SUSPENDED = 'suspended-after-failure';
export type WebhookDisabled = boolean | typeof SUSPENDED;

@ClosedSchema()
export class WatchedItemView {
  @ApiProperty({ enum: WATCHED_TYPES })
  type!: WatchedType;

  @ApiProperty()
  name!: string;

  @ApiPropertyOptional({ format: 'uri', description: 'for users and organizations' })
  avatarUrl?: string;
}

/** Spec 2.5, as returned: secret values never, only their names. */
@ClosedSchema()
export class WebhookJobView {
  @ApiPropertyOptional() dockerImage?: string;
  @ApiPropertyOptional() spaceId?: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) environment!: Record<string, string>;
  @ApiPropertyOptional({ type: [String] }) arguments?: string[];
  @ApiPropertyOptional({ type: [String] }) command?: string[];
  @ApiProperty({ enum: JOB_FLAVORS }) flavor!: string;
  @ApiProperty({ type: Number, nullable: true }) timeoutSeconds!: number | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } }) labels?: Record<string, string>;
  @ApiPropertyOptional({ type: [String], description: 'names only' }) secrets?: string[];
}

/** Spec 2.4: no additional properties, `hasSecret` only. */
@ClosedSchema()
export class WebhookView {
  @ApiProperty({ pattern: '^[0-9a-f]{24}$' }) id!: string;
  @ApiPropertyOptional({ format: 'uri' }) url?: string;
  @ApiPropertyOptional({ type: WebhookJobView }) job?: WebhookJobView;
  @ApiPropertyOptional() jobSourceId?: string;
  @ApiProperty({ oneOf: [{ type: 'boolean' }, { type: 'string', enum: [SUSPENDED] }] }) disabled!: WebhookDisabled;
  @ApiProperty({ type: [WatchedItemView] }) watched!: WatchedItemView[];
  @ApiProperty() hasSecret!: boolean;
  @ApiProperty({ enum: WEBHOOK_DOMAINS, isArray: true }) domains!: WebhookDomain[];
  @ApiPropertyOptional({ format: 'date-time' }) lastTriggerAt?: string;
}

@ClosedSchema()
export class WebhookAnswer {
  @ApiProperty({ type: WebhookView }) webhook!: WebhookView;
}

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
