import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { JOB_ARCHES, JOB_FLAVORS, JOB_VOLUME_TYPES, type JobFlavor } from './jobs.enums';
import { IsImageReference } from './image-reference';
import { IsStringMap } from './string-map.validator';

export const JOB_ENV_KEY = /^[a-zA-Z][_a-zA-Z0-9]+$/;
export const JOB_SECRET_KEY = /^[a-zA-Z][_a-zA-Z0-9]*$/;
export const JOB_LABEL_KEY = /^[a-zA-Z0-9._-]{1,100}$/;
export const JOB_LABEL_VALUE = /^[a-zA-Z0-9._-]{0,100}$/;
/** Bounds of our own where the spec names none: kept generous, always answered with a 400. */
export const JOB_LIMITS = {
  items: 1000,
  itemLength: 10_000,
  mapEntries: 200,
  valueLength: 65_536,
  timeoutSeconds: 7 * 24 * 3600,
  attempts: 10,
};

const LABEL_RULES = {
  key: JOB_LABEL_KEY,
  keyRule: 'be 1..100 characters of letters, digits, ".", "_" or "-"',
  value: JOB_LABEL_VALUE,
  valueRule: 'be at most 100 characters of letters, digits, ".", "_" or "-"',
  maxEntries: JOB_LIMITS.mapEntries,
  maxValueLength: 100,
};
/** Labels of a job: its spec's, and `PUT …/labels`. */
export const IsJobLabels = (): PropertyDecorator => IsStringMap(LABEL_RULES);

const PORTS = 'must hold integers 1..65535';

/*
 * The job object of spec 4.6, declared once: `POST /api/jobs/{namespace}` validates it at the top,
 * a webhook's `job` and a scheduled job's `jobSpec` nest it. Every message starts with the
 * property, so the path in front comes from where it sits: `flavor must be one of …` for a job,
 * `job.flavor must be one of …` for a webhook, `job.volumes.0.type …` for its first volume.
 */

export class JobVolumeDto {
  @ApiProperty({ enum: JOB_VOLUME_TYPES })
  @IsIn(JOB_VOLUME_TYPES, { message: `type must be one of ${JOB_VOLUME_TYPES.join(', ')}` })
  type!: (typeof JOB_VOLUME_TYPES)[number];

  @ApiProperty()
  @IsString({ message: 'source must be a string' })
  @Length(1, 200, { message: 'source must be 1..200 characters' })
  source!: string;

  @ApiProperty()
  @IsString({ message: 'mountPath must be a string' })
  @Matches(/^\/.{0,499}$/, { message: 'mountPath must start with / (at most 500 characters)' })
  mountPath!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'revision must be a string' })
  @Length(1, 200, { message: 'revision must be 1..200 characters' })
  revision?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'readOnly must be a boolean' })
  readOnly?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'path must be a string' })
  @MaxLength(500, { message: 'path must be at most 500 characters' })
  path?: string;
}

export class JobExposeDto {
  @ApiProperty({ type: [Number] })
  @IsArray({ message: 'ports must be an array' })
  @ArrayMaxSize(20, { message: 'ports must hold at most 20 ports' })
  @IsInt({ each: true, message: `ports ${PORTS}` })
  @Min(1, { each: true, message: `ports ${PORTS}` })
  @Max(65535, { each: true, message: `ports ${PORTS}` })
  ports!: number[];

  @ApiPropertyOptional({ type: [Number] })
  @IsOptional()
  @IsArray({ message: 'portsPublic must be an array' })
  @ArrayMaxSize(20, { message: 'portsPublic must hold at most 20 ports' })
  @ValidateBy({
    name: 'subsetOfPorts',
    validator: {
      validate: (v: unknown, a) => {
        const ports = (a?.object as JobExposeDto | undefined)?.ports;
        return Array.isArray(v) && Array.isArray(ports) && v.every((p) => ports.includes(p as number));
      },
      defaultMessage: () => 'portsPublic must be a subset of ports',
    },
  })
  portsPublic?: number[];
}

export class JobSshDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'enabled must be a boolean' })
  enabled?: boolean;
}

/** The job object of spec 4.6 (see above: one class for jobs, webhooks and scheduled jobs). */
export class CreateJobDto {
  @ApiProperty({ enum: JOB_FLAVORS })
  @IsIn(JOB_FLAVORS, { message: `flavor must be one of ${JOB_FLAVORS.join(', ')}` })
  flavor!: JobFlavor;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'spaceId must be a string' })
  @Length(1, 200, { message: 'spaceId must be 1..200 characters' })
  spaceId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'dockerImage must be a string' })
  @Length(1, 500, { message: 'dockerImage must be 1..500 characters' })
  @IsImageReference()
  dockerImage?: string;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray({ message: 'arguments must be an array of strings' })
  @ArrayMaxSize(JOB_LIMITS.items, { message: `arguments must hold at most ${JOB_LIMITS.items} items` })
  @IsString({ each: true, message: 'arguments must be an array of strings' })
  @MaxLength(JOB_LIMITS.itemLength, {
    each: true,
    message: `arguments must be at most ${JOB_LIMITS.itemLength} characters in every item`,
  })
  arguments?: string[];

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray({ message: 'command must be an array of strings' })
  @ArrayMinSize(1, { message: 'command must hold at least 1 item' })
  @ArrayMaxSize(JOB_LIMITS.items, { message: `command must hold at most ${JOB_LIMITS.items} items` })
  @IsString({ each: true, message: 'command must be an array of strings' })
  @MinLength(1, { each: true, message: 'command must be at least 1 character in every item' })
  @MaxLength(JOB_LIMITS.itemLength, {
    each: true,
    message: `command must be at most ${JOB_LIMITS.itemLength} characters in every item`,
  })
  command?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOptional()
  @IsStringMap({ key: JOB_ENV_KEY, maxEntries: JOB_LIMITS.mapEntries, maxValueLength: JOB_LIMITS.valueLength })
  environment?: Record<string, string>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOptional()
  @IsStringMap({ key: JOB_SECRET_KEY, maxEntries: JOB_LIMITS.mapEntries, maxValueLength: JOB_LIMITS.valueLength })
  secrets?: Record<string, string>;

  @ApiPropertyOptional({ enum: JOB_ARCHES })
  @IsOptional()
  @IsIn(JOB_ARCHES, { message: `arch must be one of ${JOB_ARCHES.join(', ')}` })
  arch?: (typeof JOB_ARCHES)[number];

  @ApiPropertyOptional({ type: Number, nullable: true })
  @ValidateIf((o: CreateJobDto) => o.timeoutSeconds !== null && o.timeoutSeconds !== undefined)
  @IsInt({
    message: `timeoutSeconds must be an integer greater than 0 and at most ${JOB_LIMITS.timeoutSeconds}, or null`,
  })
  @Min(1, {
    message: `timeoutSeconds must be an integer greater than 0 and at most ${JOB_LIMITS.timeoutSeconds}, or null`,
  })
  @Max(JOB_LIMITS.timeoutSeconds, {
    message: `timeoutSeconds must be an integer greater than 0 and at most ${JOB_LIMITS.timeoutSeconds}, or null`,
  })
  timeoutSeconds?: number | null;

  @ApiPropertyOptional({ minimum: 1, maximum: JOB_LIMITS.attempts })
  @IsOptional()
  @IsInt({ message: `attempts must be an integer of at least 1 and at most ${JOB_LIMITS.attempts}` })
  @Min(1, { message: `attempts must be an integer of at least 1 and at most ${JOB_LIMITS.attempts}` })
  @Max(JOB_LIMITS.attempts, { message: `attempts must be an integer of at least 1 and at most ${JOB_LIMITS.attempts}` })
  attempts?: number;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOptional()
  @IsJobLabels()
  labels?: Record<string, string>;

  @ApiPropertyOptional({ type: [JobVolumeDto] })
  @IsOptional()
  @IsArray({ message: 'volumes must be an array' })
  @ArrayMinSize(1, { message: 'volumes must hold at least 1 item' })
  @ArrayMaxSize(20, { message: 'volumes must hold at most 20 items' })
  @ValidateNested({ each: true })
  @Type(() => JobVolumeDto)
  volumes?: JobVolumeDto[];

  @ApiPropertyOptional({ type: JobExposeDto })
  @IsOptional()
  @IsObject({ message: 'expose must be an object' })
  @ValidateNested()
  @Type(() => JobExposeDto)
  expose?: JobExposeDto;

  @ApiPropertyOptional({ type: JobSshDto })
  @IsOptional()
  @IsObject({ message: 'ssh must be an object' })
  @ValidateNested()
  @Type(() => JobSshDto)
  ssh?: JobSshDto;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{24}$/, { message: 'resourceGroupId must be 24 hexadecimal characters' })
  resourceGroupId?: string;
}

/** `PUT /api/jobs/{namespace}/{jobId}/labels`. */
export class UpdateJobLabelsDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  @IsJobLabels()
  labels!: Record<string, string>;
}
