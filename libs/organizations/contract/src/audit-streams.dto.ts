import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { AUDIT_EVENT_TYPES, ClosedSchema, OBJECT_ID_PATTERN } from '@hub/contracts';

export const AUDIT_STREAM_TYPES = ['https', 's3', 'splunk', 'datadog'] as const;
export type AuditStreamType = (typeof AUDIT_STREAM_TYPES)[number];

export const AUDIT_STREAM_STATES = ['active', 'paused', 'failing'] as const;
export type AuditStreamState = (typeof AUDIT_STREAM_STATES)[number];

/** Datadog sites (its `site` parameter); the intake is `https://http-intake.logs.<site>/api/v2/logs`. */
export const DATADOG_SITES = [
  'datadoghq.com',
  'us3.datadoghq.com',
  'us5.datadoghq.com',
  'datadoghq.eu',
  'ap1.datadoghq.com',
  'ap2.datadoghq.com',
  'ddog-gov.com',
] as const;

/** The action families a filter may name: the part of an audit event type before its first dot. */
export const AUDIT_FAMILIES = [...new Set(AUDIT_EVENT_TYPES.map((t) => t.split('.')[0]))];

/** Fields each type takes; credentials are sealed at rest and answered as hints only (decision 0411). */
export const AUDIT_STREAM_FIELDS: Record<AuditStreamType, { settings: string[]; credentials: string[] }> = {
  https: { settings: ['url'], credentials: ['secret'] },
  s3: { settings: ['bucket', 'prefix', 'region', 'endpoint'], credentials: ['accessKeyId', 'secretAccessKey'] },
  splunk: { settings: ['url'], credentials: ['token'] },
  datadog: { settings: ['site'], credentials: ['apiKey'] },
};
/** Optional settings: every other field of a type is required on create. */
export const AUDIT_STREAM_OPTIONAL = ['prefix', 'endpoint'];

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };
const CREDENTIAL = /^[\x21-\x7e]+$/;
/** Validated when the type takes the field or when it is sent anyway (the service then names it as foreign). */
const takes =
  (field: string) =>
  (o: AuditStreamBodyDto): boolean =>
    (o as unknown as Record<string, unknown>)[field] !== undefined;

/**
 * `POST …/audit-log/streams` and `PUT …/streams/{id}`: flat, with a `type` (issue 39). Which fields
 * a type requires is the service's rule (a PUT may leave credentials out to keep them).
 */
export class AuditStreamBodyDto {
  @ApiProperty({ enum: AUDIT_STREAM_TYPES })
  @IsIn(AUDIT_STREAM_TYPES, { message: `type must be one of ${AUDIT_STREAM_TYPES.join(', ')}` })
  type!: AuditStreamType;

  @ApiPropertyOptional({ format: 'uri', description: 'https and splunk: where batches are POSTed' })
  @ValidateIf(takes('url'))
  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  @IsUrl(URL_OPTIONS, { message: 'url must be an absolute http or https URL' })
  @IsString({ message: 'url must be an absolute http or https URL' })
  url?: string;

  @ApiPropertyOptional({ description: 'https: the signing secret (Standard Webhooks), 16..256 characters' })
  @ValidateIf(takes('secret'))
  @Length(16, 256, { message: 'secret must be 16..256 characters' })
  @Matches(CREDENTIAL, { message: 'secret must hold visible ASCII characters only' })
  @IsString({ message: 'secret must be a string' })
  secret?: string;

  @ApiPropertyOptional({ description: 's3: the bucket name' })
  @ValidateIf(takes('bucket'))
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
    message: 'bucket must be an S3 bucket name (3..63 a-z, 0-9, . and -)',
  })
  @IsString({ message: 'bucket must be a string' })
  bucket?: string;

  @ApiPropertyOptional({ description: 's3: key prefix of the objects, without leading or trailing /' })
  @ValidateIf(takes('prefix'))
  @Matches(/^[A-Za-z0-9!_.*'()-]+(\/[A-Za-z0-9!_.*'()-]+)*$/, {
    message: "prefix must be path segments of letters, digits and !_.*'()- joined by /",
  })
  @MaxLength(512, { message: 'prefix must be at most 512 characters' })
  @IsString({ message: 'prefix must be a string' })
  prefix?: string;

  @ApiPropertyOptional({ example: 'eu-west-1', description: 's3: the region' })
  @ValidateIf(takes('region'))
  @Matches(/^[a-z0-9-]{2,32}$/, { message: 'region must be a region name (a-z, 0-9 and -)' })
  @IsString({ message: 'region must be a string' })
  region?: string;

  @ApiPropertyOptional({
    format: 'uri',
    description: 's3: an S3-compatible endpoint (MinIO, R2, GCS); AWS when absent',
  })
  @ValidateIf(takes('endpoint'))
  @MaxLength(2048, { message: 'endpoint must be at most 2048 characters' })
  @IsUrl(URL_OPTIONS, { message: 'endpoint must be an absolute http or https URL' })
  @IsString({ message: 'endpoint must be an absolute http or https URL' })
  endpoint?: string;

  @ApiPropertyOptional({ description: 's3: access key id' })
  @ValidateIf(takes('accessKeyId'))
  @Length(1, 128, { message: 'accessKeyId must be 1..128 characters' })
  @Matches(CREDENTIAL, { message: 'accessKeyId must hold visible ASCII characters only' })
  @IsString({ message: 'accessKeyId must be a string' })
  accessKeyId?: string;

  @ApiPropertyOptional({ description: 's3: secret access key' })
  @ValidateIf(takes('secretAccessKey'))
  @Length(1, 256, { message: 'secretAccessKey must be 1..256 characters' })
  @Matches(CREDENTIAL, { message: 'secretAccessKey must hold visible ASCII characters only' })
  @IsString({ message: 'secretAccessKey must be a string' })
  secretAccessKey?: string;

  @ApiPropertyOptional({ description: 'splunk: the HTTP Event Collector token' })
  @ValidateIf(takes('token'))
  @Length(8, 256, { message: 'token must be 8..256 characters' })
  @Matches(CREDENTIAL, { message: 'token must hold visible ASCII characters only' })
  @IsString({ message: 'token must be a string' })
  token?: string;

  @ApiPropertyOptional({ enum: DATADOG_SITES, description: 'datadog: the Datadog site' })
  @ValidateIf(takes('site'))
  @IsIn(DATADOG_SITES, { message: `site must be one of ${DATADOG_SITES.join(', ')}` })
  site?: string;

  @ApiPropertyOptional({ description: 'datadog: the API key' })
  @ValidateIf(takes('apiKey'))
  @Length(8, 256, { message: 'apiKey must be 8..256 characters' })
  @Matches(CREDENTIAL, { message: 'apiKey must hold visible ASCII characters only' })
  @IsString({ message: 'apiKey must be a string' })
  apiKey?: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'Action families to stream (the part of the event type before its first dot); all when absent',
    example: ['org', 'repo'],
  })
  @IsOptional()
  @IsIn(AUDIT_FAMILIES, { each: true, message: `filter items must be action families: ${AUDIT_FAMILIES.join(', ')}` })
  @ArrayUnique({ message: 'filter must not name a family twice' })
  @ArrayMaxSize(AUDIT_FAMILIES.length, { message: `filter must hold at most ${AUDIT_FAMILIES.length} items` })
  @IsArray({ message: 'filter must be an array' })
  filter?: string[];
}

/** `GET …/streams/{id}/deliveries?limit=` */
export class AuditStreamDeliveriesQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @Max(500, { message: 'limit must be 1..500' })
  @Min(1, { message: 'limit must be 1..500' })
  @IsInt({ message: 'limit must be an integer' })
  limit?: number;
}

@ClosedSchema()
export class AuditStreamHintsView {
  @ApiPropertyOptional({ example: '…wxyz' }) secret?: string;
  @ApiPropertyOptional({ example: '…wxyz' }) accessKeyId?: string;
  @ApiPropertyOptional({ example: '…wxyz' }) secretAccessKey?: string;
  @ApiPropertyOptional({ example: '…wxyz' }) token?: string;
  @ApiPropertyOptional({ example: '…wxyz' }) apiKey?: string;
}

@ClosedSchema()
export class AuditStreamView {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN.source }) id!: string;
  @ApiProperty({ enum: AUDIT_STREAM_TYPES }) type!: AuditStreamType;
  @ApiProperty({ enum: AUDIT_STREAM_STATES }) state!: AuditStreamState;
  @ApiPropertyOptional({ format: 'uri' }) url?: string;
  @ApiPropertyOptional() bucket?: string;
  @ApiPropertyOptional() prefix?: string;
  @ApiPropertyOptional() region?: string;
  @ApiPropertyOptional({ format: 'uri' }) endpoint?: string;
  @ApiPropertyOptional({ enum: DATADOG_SITES }) site?: string;
  @ApiProperty({ type: AuditStreamHintsView, description: 'The last four characters of each credential' })
  hints!: AuditStreamHintsView;
  @ApiPropertyOptional({ type: [String] }) filter?: string[];
  @ApiProperty({ type: 'string', nullable: true, description: 'Why the last batch failed, until one succeeds' })
  lastError!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) failingSince!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) lastDeliveredAt!: string | null;
  @ApiProperty({ description: 'Events dropped because they waited past the retention window' }) dropped!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export const AUDIT_STREAM_DELIVERY_KINDS = ['batch', 'test', 'dropped'] as const;

@ClosedSchema()
export class AuditStreamDeliveryView {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ enum: AUDIT_STREAM_DELIVERY_KINDS }) kind!: (typeof AUDIT_STREAM_DELIVERY_KINDS)[number];
  @ApiProperty({ description: 'Records sent (batch, test) or dropped' }) records!: number;
  @ApiProperty({ type: 'string', nullable: true }) firstEventId!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) lastEventId!: string | null;
  @ApiProperty() ok!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: "The destination's HTTP status" }) status!:
    number | null;
  @ApiProperty({ type: 'string', nullable: true }) error!: string | null;
  @ApiProperty({ description: 'Milliseconds until the destination answered' }) latencyMs!: number;
}

@ClosedSchema()
export class AuditStreamDeliveriesView {
  @ApiProperty({ type: [AuditStreamDeliveryView], description: 'Newest first' })
  items!: AuditStreamDeliveryView[];
}

@ClosedSchema()
export class AuditStreamTestView {
  @ApiProperty() ok!: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) status!: number | null;
  @ApiProperty({ description: "The destination's answer (at most 2 kB)" }) body!: string;
  @ApiProperty({ type: 'string', nullable: true }) error!: string | null;
  @ApiProperty() latencyMs!: number;
}

/** The organization a stream RPC acts on (the gateway checked the caller is an admin, Enterprise plan). */
export class AuditStreamOrgRpc {
  @Matches(OBJECT_ID_PATTERN) organizationId!: string;
  @IsString() organization!: string;
}

export class AuditStreamRefRpc extends AuditStreamOrgRpc {
  @Matches(OBJECT_ID_PATTERN, { message: 'stream id must be a 24-character hex id' }) streamId!: string;
}

export class CreateAuditStreamRpc extends AuditStreamOrgRpc {
  @ValidateNested()
  @Type(() => AuditStreamBodyDto)
  body!: AuditStreamBodyDto;
}

export class UpdateAuditStreamRpc extends AuditStreamRefRpc {
  @ValidateNested()
  @Type(() => AuditStreamBodyDto)
  body!: AuditStreamBodyDto;
}

export class SetAuditStreamStateRpc extends AuditStreamRefRpc {
  @IsIn(['pause', 'resume']) action!: 'pause' | 'resume';
}

export class ListAuditStreamDeliveriesRpc extends AuditStreamRefRpc {
  @IsInt() @Min(1) @Max(500) limit!: number;
}
