import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { JOB_STAGES, type JobStage, NAME_PATTERN, OBJECT_ID_PATTERN } from '@hub/contracts';

export class NamespaceParam {
  @ApiProperty()
  @Matches(NAME_PATTERN, { message: 'namespace must be a user or organization name' })
  namespace!: string;
}

export class JobParam extends NamespaceParam {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN.source })
  @Matches(OBJECT_ID_PATTERN, { message: 'jobId must be a 24-character hexadecimal id' })
  jobId!: string;
}

const asArray = ({ value }: { value: unknown }): unknown =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

export class ListJobsQuery {
  // `hf jobs ps` asks for running and scheduling jobs at once: ?stage=RUNNING&stage=SCHEDULING (decision 0630).
  @ApiPropertyOptional({
    enum: JOB_STAGES,
    isArray: true,
    description: 'repeat for several: a job in any of them is listed',
  })
  @IsOptional()
  @Transform(asArray)
  @IsArray()
  @ArrayMaxSize(JOB_STAGES.length)
  @IsIn(JOB_STAGES, { each: true, message: `stage must be one of ${JOB_STAGES.join(', ')}` })
  stage?: JobStage[];

  @ApiPropertyOptional({ type: [String], description: 'key=value; repeat for several (all must match)' })
  @IsOptional()
  @Transform(asArray)
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Matches(/^[a-zA-Z0-9._-]{1,100}=[a-zA-Z0-9._-]{0,100}$/, { each: true, message: 'label must be key=value' })
  label?: string[];

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(OBJECT_ID_PATTERN, { message: 'cursor is not one this server gave out' })
  cursor?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(1000)
  limit?: number;
}

export class LogsQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 100000, description: 'only the last N lines kept so far' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'tail must be an integer' })
  @Min(1)
  @Max(100_000)
  tail?: number;
}
