import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { WATCHED_TYPES, type WatchedType, WEBHOOK_DOMAINS, type WebhookDomain } from '@hub/contracts';
import { CreateJobDto } from '@hub/jobs-contract';

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
