import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Matches, Max,
  MaxLength, Min, MinLength, ValidateIf, ValidateNested,
} from 'class-validator';
import { JOB_ARCHES, JOB_FLAVORS, JOB_VOLUME_TYPES, type JobFlavor } from './jobs.enums';
import { IsStringMap } from './string-map.validator';

export const JOB_ENV_KEY = /^[a-zA-Z][_a-zA-Z0-9]+$/;
export const JOB_SECRET_KEY = /^[a-zA-Z][_a-zA-Z0-9]*$/;
export const JOB_LABEL_KEY = /^[a-zA-Z0-9._-]{1,100}$/;
export const JOB_LABEL_VALUE = /^[a-zA-Z0-9._-]{0,100}$/;
/** Bounds of our own where the spec names none: kept generous, always answered with a 400. */
export const JOB_LIMITS = { items: 1000, itemLength: 10_000, mapEntries: 200, valueLength: 65_536, timeoutSeconds: 7 * 24 * 3600, attempts: 10 };

export class JobVolumeDto {
  @ApiProperty({ enum: JOB_VOLUME_TYPES }) @IsIn(JOB_VOLUME_TYPES)
  type!: (typeof JOB_VOLUME_TYPES)[number];

  @ApiProperty() @IsString() @Length(1, 200)
  source!: string;

  @ApiProperty() @IsString() @Matches(/^\/.{0,499}$/, { message: 'volumes.mountPath must start with /' })
  mountPath!: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 200)
  revision?: string;

  @ApiPropertyOptional() @IsOptional() @IsBoolean()
  readOnly?: boolean;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(500)
  path?: string;
}

export class JobExposeDto {
  @ApiProperty({ type: [Number] }) @IsArray() @ArrayMaxSize(20) @IsInt({ each: true }) @Min(1, { each: true }) @Max(65535, { each: true })
  ports!: number[];

  @ApiPropertyOptional({ type: [Number] }) @IsOptional() @IsArray() @ArrayMaxSize(20) @IsInt({ each: true }) @Min(1, { each: true }) @Max(65535, { each: true })
  portsPublic?: number[];
}

export class JobSshDto {
  @ApiPropertyOptional() @IsOptional() @IsBoolean()
  enabled?: boolean;
}

/** The job object of spec 4.6 as sent on `POST /api/jobs/{namespace}`. */
export class CreateJobDto {
  @ApiProperty({ enum: JOB_FLAVORS }) @IsIn(JOB_FLAVORS, { message: `flavor must be one of ${JOB_FLAVORS.join(', ')}` })
  flavor!: JobFlavor;

  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 200)
  spaceId?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 500)
  dockerImage?: string;

  @ApiPropertyOptional({ type: [String] }) @IsOptional() @IsArray() @ArrayMaxSize(JOB_LIMITS.items) @IsString({ each: true }) @MaxLength(JOB_LIMITS.itemLength, { each: true })
  arguments?: string[];

  @ApiPropertyOptional({ type: [String] }) @IsOptional() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(JOB_LIMITS.items)
  @IsString({ each: true }) @MinLength(1, { each: true }) @MaxLength(JOB_LIMITS.itemLength, { each: true })
  command?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } }) @IsOptional() @IsObject()
  @IsStringMap(JOB_ENV_KEY, undefined, JOB_LIMITS.mapEntries, JOB_LIMITS.valueLength)
  environment?: Record<string, string>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } }) @IsOptional() @IsObject()
  @IsStringMap(JOB_SECRET_KEY, undefined, JOB_LIMITS.mapEntries, JOB_LIMITS.valueLength)
  secrets?: Record<string, string>;

  @ApiPropertyOptional({ enum: JOB_ARCHES }) @IsOptional() @IsIn(JOB_ARCHES)
  arch?: (typeof JOB_ARCHES)[number];

  @ApiPropertyOptional({ type: Number, nullable: true }) @ValidateIf((o: CreateJobDto) => o.timeoutSeconds !== null && o.timeoutSeconds !== undefined)
  @IsInt() @Min(1) @Max(JOB_LIMITS.timeoutSeconds)
  timeoutSeconds?: number | null;

  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(1) @Max(JOB_LIMITS.attempts)
  attempts?: number;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } }) @IsOptional() @IsObject()
  @IsStringMap(JOB_LABEL_KEY, JOB_LABEL_VALUE, JOB_LIMITS.mapEntries)
  labels?: Record<string, string>;

  @ApiPropertyOptional({ type: [JobVolumeDto] }) @IsOptional() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(20) @ValidateNested({ each: true }) @Type(() => JobVolumeDto)
  volumes?: JobVolumeDto[];

  @ApiPropertyOptional({ type: JobExposeDto }) @IsOptional() @ValidateNested() @Type(() => JobExposeDto)
  expose?: JobExposeDto;

  @ApiPropertyOptional({ type: JobSshDto }) @IsOptional() @ValidateNested() @Type(() => JobSshDto)
  ssh?: JobSshDto;

  @ApiPropertyOptional() @IsOptional() @Matches(/^[0-9a-fA-F]{24}$/, { message: 'resourceGroupId must be 24 hex characters' })
  resourceGroupId?: string;
}

/** `PUT /api/jobs/{namespace}/{jobId}/labels`. */
export class UpdateJobLabelsDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) @IsObject()
  @IsStringMap(JOB_LABEL_KEY, JOB_LABEL_VALUE, JOB_LIMITS.mapEntries)
  labels!: Record<string, string>;
}
