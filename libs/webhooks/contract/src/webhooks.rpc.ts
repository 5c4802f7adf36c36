import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  ClosedSchema,
  JOB_FLAVORS,
  NAME_PATTERN,
  OBJECT_ID_PATTERN,
  rpc,
  WATCHED_TYPES,
  type WatchedType,
  WEBHOOK_DOMAINS,
  type WebhookDomain,
} from '@hub/contracts';
import { CreateJobDto } from '@hub/jobs-contract';
import { MAX_DELIVERIES_LISTED, type WebhookDeliveryView } from './webhook-deliveries.dto';
import { MAX_PER_SECOND, MIN_PER_SECOND, type WebhookDeliveryOptionsView } from './webhook-delivery-options.dto';
import { WebhookHeaderDto, type WebhookHeadersAnswer } from './webhook-headers.dto';
import { WebhookLogFilterDto, type WebhookLogView } from './webhook-log-filter.dto';
import { type RecoveryView } from './webhook-recovery.dto';

/*
 * The webhooks' contract: the body of spec 4.6, the webhook as answered (spec 2.4), the RPC
 * requests and `WebhooksRpc`. The other areas' bodies and views (headers, recovery, delivery
 * options, deliveries, the log) sit in their own files beside this one.
 */

// The body (spec 4.6)

/** Bounds of our own (spec 4.6 sets none): enough for any real use, small enough to index. */
export const MAX_WATCHED = 100;
export const MAX_URL_LENGTH = 2048;
export const MAX_SECRET_LENGTH = 1024;

export class WatchedItemDto {
  @ApiProperty({ enum: WATCHED_TYPES })
  @IsIn(WATCHED_TYPES, { message: `watched[].type must be one of ${WATCHED_TYPES.join(', ')}` })
  type!: WatchedType;

  @ApiProperty({ example: 'alice/tiny-model' })
  @Length(1, 200, { message: 'watched[].name must be 1..200 characters' })
  @IsString({ message: 'watched[].name must be a string' })
  name!: string;
}

/**
 * Spec 4.6, create and update. `null` means absent (older Python clients send `null` for what the
 * caller left out); on update an empty `watched` keeps the current list (decision 0500). The rule
 * "exactly one of url, job, jobSourceId" is the service's, because update may keep the current one.
 */
export class WebhookBodyDto {
  @ApiProperty({
    type: [WatchedItemDto],
    description: 'At least 1 item on create; on update an empty list keeps the current one',
  })
  @IsOptional()
  @IsArray({ message: 'watched must be an array' })
  @ArrayMaxSize(MAX_WATCHED, { message: `watched must hold at most ${MAX_WATCHED} items` })
  @ValidateNested({ each: true })
  @Type(() => WatchedItemDto)
  watched?: WatchedItemDto[] | null;

  @ApiPropertyOptional({
    enum: WEBHOOK_DOMAINS,
    isArray: true,
    description: 'Required on create (at least 1); absent or null on update keeps the current ones',
  })
  @IsOptional()
  @IsArray({ message: 'domains must be an array' })
  @IsIn(WEBHOOK_DOMAINS, { each: true, message: 'domains must hold only repo and discussion' })
  domains?: WebhookDomain[] | null;

  @ApiPropertyOptional({ format: 'uri', example: 'https://example.com/webhooks/run' })
  @IsOptional()
  @MaxLength(MAX_URL_LENGTH, { message: `url must be at most ${MAX_URL_LENGTH} characters` })
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false, require_valid_protocol: true },
    { message: 'url must be an absolute http or https URL' },
  )
  @IsString({ message: 'url must be an absolute http or https URL' })
  url?: string | null;

  /** The job object of spec 4.6, the same class as `POST /api/jobs/{namespace}` (its messages get `job.` in front). */
  @ApiPropertyOptional({ type: CreateJobDto })
  @IsOptional()
  @IsObject({ message: 'job must be an object' })
  @ValidateNested()
  @Type(() => CreateJobDto)
  job?: CreateJobDto | null;

  @ApiPropertyOptional({ description: 'Id of a job whose copy is started on trigger' })
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{24}$/, { message: 'jobSourceId must be a job id (24 hexadecimal characters)' })
  jobSourceId?: string | null;

  @ApiPropertyOptional({
    description: 'Printable ASCII; on update absent or null keeps the current secret and "" removes it',
  })
  @IsOptional()
  @MaxLength(MAX_SECRET_LENGTH, { message: `secret must be at most ${MAX_SECRET_LENGTH} characters` })
  @Matches(/^[\x20-\x7F]*$/, { message: 'secret must be printable ASCII' })
  @IsString({ message: 'secret must be a string' })
  secret?: string | null;
}

// The webhook as answered (spec 2.4)

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

// The RPC requests

/** Every webhooks RPC names the caller: a user sees and touches only their own webhooks. */
export class WebhookOwnerRpc {
  @Matches(OBJECT_ID_PATTERN)
  ownerId!: string;

  /** The owner's user name: the namespace job webhooks start their jobs in. */
  @Matches(NAME_PATTERN)
  ownerName!: string;
}

export class WebhookRefRpc extends WebhookOwnerRpc {
  /** Any string: an id that is not ours is a 404, like a missing one. */
  @IsString()
  id!: string;
}

export class CreateWebhookRpc extends WebhookOwnerRpc {
  @ValidateNested()
  @Type(() => WebhookBodyDto)
  body!: WebhookBodyDto;
}

export class UpdateWebhookRpc extends WebhookRefRpc {
  @ValidateNested()
  @Type(() => WebhookBodyDto)
  body!: WebhookBodyDto;
}

export class SetWebhookStateRpc extends WebhookRefRpc {
  @IsIn(['enable', 'disable'])
  action!: 'enable' | 'disable';
}

export class ReplayWebhookRpc extends WebhookRefRpc {
  @IsString()
  logId!: string;
}

export class ListWebhookLogsRpc extends WebhookRefRpc {
  /** The id of the last log of the previous page (newest first). */
  @IsOptional()
  @IsString()
  cursor?: string;

  @IsInt()
  @Min(1)
  @Max(100)
  limit!: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => WebhookLogFilterDto)
  filter?: WebhookLogFilterDto;
}

export class SetWebhookHeadersRpc extends WebhookRefRpc {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => WebhookHeaderDto)
  headers!: WebhookHeaderDto[];
}

export class RecoverWebhookRpc extends WebhookRefRpc {
  @IsISO8601({ strict: true })
  since!: string;

  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string;
}

export class GetRecoveryRpc extends WebhookRefRpc {
  @IsString()
  recoveryId!: string;
}

export class SetDeliveryOptionsRpc extends WebhookRefRpc {
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(MIN_PER_SECOND)
  @Max(MAX_PER_SECOND)
  maxPerSecond?: number | null;

  @IsOptional()
  @IsBoolean()
  ordered?: boolean | null;
}

export class ListWebhookDeliveriesRpc extends WebhookRefRpc {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_DELIVERIES_LISTED)
  @IsString({ each: true })
  ids?: string[];

  @IsInt()
  @Min(1)
  @Max(MAX_DELIVERIES_LISTED)
  limit!: number;
}

// The descriptors

export interface WebhookLogPage {
  items: WebhookLogView[];
  /** Cursor of the next page, when there is one. */
  next?: string;
}

/** `webhooks.<resource>.<verb>`, declared once with both types (style.md rule 2). */
export const WebhooksRpc = {
  List: rpc<WebhookOwnerRpc, WebhookView[]>('webhooks.webhook.list', WebhookOwnerRpc),
  Create: rpc<CreateWebhookRpc, WebhookView>('webhooks.webhook.create', CreateWebhookRpc),
  Get: rpc<WebhookRefRpc, WebhookView>('webhooks.webhook.get', WebhookRefRpc),
  Update: rpc<UpdateWebhookRpc, WebhookView>('webhooks.webhook.update', UpdateWebhookRpc),
  Delete: rpc<WebhookRefRpc, { deleted: true }>('webhooks.webhook.delete', WebhookRefRpc),
  SetState: rpc<SetWebhookStateRpc, WebhookView>('webhooks.webhook.set-state', SetWebhookStateRpc),
  Replay: rpc<ReplayWebhookRpc, { status: number }>('webhooks.delivery.replay', ReplayWebhookRpc),
  /** A test event to the webhook's URL now, logged as a `test` attempt (decision 0509): GitHub's ping. */
  Test: rpc<WebhookRefRpc, { status: number }>('webhooks.delivery.test', WebhookRefRpc),
  ListLogs: rpc<ListWebhookLogsRpc, WebhookLogPage>('webhooks.delivery.list-logs', ListWebhookLogsRpc),
  /** Deliveries and their retry state (decision 0804): read-only, a sub-resource of the webhook. */
  ListDeliveries: rpc<ListWebhookDeliveriesRpc, WebhookDeliveryView[]>(
    'webhooks.delivery.list',
    ListWebhookDeliveriesRpc,
  ),
  /** Custom headers (decision 0502): sealed at rest, answered as names and hints only. */
  GetHeaders: rpc<WebhookRefRpc, WebhookHeadersAnswer>('webhooks.headers.get', WebhookRefRpc),
  SetHeaders: rpc<SetWebhookHeadersRpc, WebhookHeadersAnswer>('webhooks.headers.set', SetWebhookHeadersRpc),
  /** Bulk recovery (decision 0502): failed deliveries of a window resent once. */
  Recover: rpc<RecoverWebhookRpc, RecoveryView>('webhooks.recovery.start', RecoverWebhookRpc),
  GetRecovery: rpc<GetRecoveryRpc, RecoveryView>('webhooks.recovery.get', GetRecoveryRpc),
  /** Delivery options (decision 0503): pacing and order per webhook, a sub-resource of the webhook. */
  GetDeliveryOptions: rpc<WebhookRefRpc, WebhookDeliveryOptionsView>('webhooks.delivery-options.get', WebhookRefRpc),
  SetDeliveryOptions: rpc<SetDeliveryOptionsRpc, WebhookDeliveryOptionsView>(
    'webhooks.delivery-options.set',
    SetDeliveryOptionsRpc,
  ),
} as const;
