import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, Min,
  MinLength, ValidateBy, ValidateNested, type ValidationOptions,
} from 'class-validator';
import { JOB_ARCHES, JOB_FLAVORS, JOB_VOLUME_TYPES } from '../enums';

export const ENV_KEY_PATTERN = /^[a-zA-Z][_a-zA-Z0-9]+$/;
export const SECRET_KEY_PATTERN = /^[a-zA-Z][_a-zA-Z0-9]*$/;
const LABEL_KEY = /^[a-zA-Z0-9._-]{1,100}$/;
const LABEL_VALUE = /^[a-zA-Z0-9._-]{0,100}$/;

/** An object whose keys match `key` and whose values are strings (matching `value` when given). */
function IsStringMap(field: string, key: RegExp, keyRule: string, value?: RegExp, valueRule?: string, options?: ValidationOptions): PropertyDecorator {
  const problem = (v: unknown): string | null => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${field} must be an object`;
    for (const [k, val] of Object.entries(v)) {
      if (!key.test(k)) return `${field} key "${k}" must ${keyRule}`;
      if (typeof val !== 'string') return `${field}.${k} must be a string`;
      if (value && !value.test(val)) return `${field}.${k} must ${valueRule ?? 'be valid'}`;
    }
    return null;
  };
  return ValidateBy({ name: 'isStringMap', validator: { validate: (v) => problem(v) === null, defaultMessage: (a) => problem(a?.value) ?? 'invalid' } }, options);
}

export class WebhookJobVolumeDto {
  @ApiProperty({ enum: JOB_VOLUME_TYPES })
  @IsIn(JOB_VOLUME_TYPES, { message: `job.volumes[].type must be one of ${JOB_VOLUME_TYPES.join(', ')}` })
  type!: string;

  @ApiProperty() @IsString({ message: 'job.volumes[].source must be a string' }) @MinLength(1, { message: 'job.volumes[].source must not be empty' })
  source!: string;

  @ApiProperty() @Matches(/^\//, { message: 'job.volumes[].mountPath must start with /' }) @IsString({ message: 'job.volumes[].mountPath must be a string' })
  mountPath!: string;

  @ApiPropertyOptional() @IsOptional() @IsString({ message: 'job.volumes[].revision must be a string' })
  revision?: string;

  @ApiPropertyOptional() @IsOptional() @IsBoolean({ message: 'job.volumes[].readOnly must be a boolean' })
  readOnly?: boolean;

  @ApiPropertyOptional() @IsOptional() @IsString({ message: 'job.volumes[].path must be a string' })
  path?: string;
}

export class WebhookJobExposeDto {
  @ApiProperty({ type: [Number] })
  @IsArray({ message: 'job.expose.ports must be an array' }) @ArrayMaxSize(20, { message: 'job.expose.ports must hold at most 20 ports' })
  @IsInt({ each: true, message: 'job.expose.ports must hold integers 1..65535' }) @Min(1, { each: true, message: 'job.expose.ports must hold integers 1..65535' })
  @Max(65535, { each: true, message: 'job.expose.ports must hold integers 1..65535' })
  ports!: number[];

  @ApiPropertyOptional({ type: [Number] })
  @IsOptional() @IsArray({ message: 'job.expose.portsPublic must be an array' }) @ArrayMaxSize(20, { message: 'job.expose.portsPublic must hold at most 20 ports' })
  @ValidateBy({
    name: 'subsetOfPorts',
    validator: {
      validate: (v: unknown, a) => Array.isArray(v) && v.every((p) => Array.isArray((a?.object as WebhookJobExposeDto).ports) && (a?.object as WebhookJobExposeDto).ports.includes(p as number)),
      defaultMessage: () => 'job.expose.portsPublic must be a subset of job.expose.ports',
    },
  })
  portsPublic?: number[];
}

export class WebhookJobSshDto {
  @ApiPropertyOptional() @IsOptional() @IsBoolean({ message: 'job.ssh.enabled must be a boolean' })
  enabled?: boolean;
}

/** The job object of spec 4.6, as sent on create/update. */
export class WebhookJobDto {
  @ApiProperty({ enum: JOB_FLAVORS })
  @IsIn(JOB_FLAVORS, { message: 'job.flavor must be one of the flavors of spec 2.3 (e.g. cpu-basic)' })
  flavor!: string;

  @ApiPropertyOptional() @IsOptional() @IsString({ message: 'job.spaceId must be a string' })
  spaceId?: string;

  @ApiPropertyOptional() @IsOptional() @IsString({ message: 'job.dockerImage must be a string' })
  dockerImage?: string;

  @ApiPropertyOptional({ type: [String] }) @IsOptional() @IsArray({ message: 'job.arguments must be an array of strings' })
  @IsString({ each: true, message: 'job.arguments must be an array of strings' })
  arguments?: string[];

  @ApiPropertyOptional({ type: [String] }) @IsOptional()
  @IsArray({ message: 'job.command must be an array of strings' }) @ArrayMinSize(1, { message: 'job.command must hold at least 1 item' })
  @IsString({ each: true, message: 'job.command must be an array of strings' }) @MinLength(1, { each: true, message: 'each item of job.command must be at least 1 character' })
  command?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } }) @IsOptional()
  @IsStringMap('job.environment', ENV_KEY_PATTERN, `match ${ENV_KEY_PATTERN.source}`)
  environment?: Record<string, string>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } }) @IsOptional()
  @IsStringMap('job.secrets', SECRET_KEY_PATTERN, `match ${SECRET_KEY_PATTERN.source}`)
  secrets?: Record<string, string>;

  @ApiPropertyOptional({ enum: JOB_ARCHES }) @IsOptional() @IsIn(JOB_ARCHES, { message: 'job.arch must be amd64 or arm64' })
  arch?: string;

  @ApiPropertyOptional({ type: Number, nullable: true }) @IsOptional()
  @IsInt({ message: 'job.timeoutSeconds must be an integer greater than 0, or null' }) @Min(1, { message: 'job.timeoutSeconds must be an integer greater than 0, or null' })
  timeoutSeconds?: number | null;

  @ApiPropertyOptional({ minimum: 1 }) @IsOptional()
  @IsInt({ message: 'job.attempts must be an integer of at least 1' }) @Min(1, { message: 'job.attempts must be an integer of at least 1' })
  attempts?: number;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } }) @IsOptional()
  @IsStringMap('job.labels', LABEL_KEY, 'be 1..100 characters of letters, digits, ".", "_" or "-"', LABEL_VALUE, 'be at most 100 characters of letters, digits, ".", "_" or "-"')
  labels?: Record<string, string>;

  @ApiPropertyOptional({ type: [WebhookJobVolumeDto] }) @IsOptional()
  @IsArray({ message: 'job.volumes must be an array' }) @ArrayMinSize(1, { message: 'job.volumes must hold at least 1 item' })
  @ValidateNested({ each: true }) @Type(() => WebhookJobVolumeDto)
  volumes?: WebhookJobVolumeDto[];

  @ApiPropertyOptional({ type: WebhookJobExposeDto }) @IsOptional() @IsObject({ message: 'job.expose must be an object' })
  @ValidateNested() @Type(() => WebhookJobExposeDto)
  expose?: WebhookJobExposeDto;

  @ApiPropertyOptional({ type: WebhookJobSshDto }) @IsOptional() @IsObject({ message: 'job.ssh must be an object' })
  @ValidateNested() @Type(() => WebhookJobSshDto)
  ssh?: WebhookJobSshDto;

  @ApiPropertyOptional() @IsOptional() @Matches(/^[0-9a-fA-F]{24}$/, { message: 'job.resourceGroupId must be 24 hexadecimal characters' })
  resourceGroupId?: string;

}
