import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsObject, IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { NAME_PATTERN, OBJECT_ID_PATTERN } from '@hub/contracts';
import { CreateJobDto, IsJobLabels } from './create-job.dto';
import { JobOwnerRef, JobUserRef } from './jobs-rpc.dto';
import { JobOwnerView, JobUserRefView } from './jobs.views';

const SCHEDULE_DOC = {
  description:
    'cron (5 fields, 6 with seconds first, or 7 with a year last) or @hourly, @daily, @weekly, @monthly, @yearly; UTC, or the zone of a leading `CRON_TZ=<IANA zone> ` (DST followed)',
  minLength: 1,
  maxLength: 200,
};

/** `POST /api/scheduled-jobs/{namespace}`. */
export class CreateScheduledJobDto {
  @ApiProperty(SCHEDULE_DOC)
  @IsString()
  @Length(1, 200)
  schedule!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  suspend?: boolean;

  @ApiPropertyOptional({ description: 'false: a firing is skipped while the previous run is still going' })
  @IsOptional()
  @IsBoolean()
  concurrency?: boolean;

  // ValidateNested skips undefined: without IsDefined a missing jobSpec reached the use case (a 500, issue 22).
  @ApiProperty({ type: CreateJobDto })
  @ValidateNested()
  @Type(() => CreateJobDto)
  @IsObject({ message: 'jobSpec must be a JSON object' })
  @IsDefined({ message: 'jobSpec is required' })
  jobSpec!: CreateJobDto;
}

export class CreateScheduledJobRpc extends CreateScheduledJobDto {
  @Matches(NAME_PATTERN)
  namespace!: string;

  @ValidateNested()
  @Type(() => JobOwnerRef)
  owner!: JobOwnerRef;

  @ValidateNested()
  @Type(() => JobUserRef)
  createdBy!: JobUserRef;
}

export class ScheduledJobRefRpc {
  @Matches(NAME_PATTERN)
  namespace!: string;

  @Matches(OBJECT_ID_PATTERN, { message: 'scheduledJobId must be a 24-character hex id' })
  scheduledJobId!: string;
}

/** `POST /api/scheduled-jobs/{namespace}/{id}/schedule`: a new schedule, the job unchanged. */
export class UpdateScheduleDto {
  @ApiProperty(SCHEDULE_DOC)
  @IsString({ message: 'schedule must be a string' })
  @Length(1, 200, { message: 'schedule must be 1 to 200 characters' })
  schedule!: string;
}

export class UpdateScheduleRpc extends ScheduledJobRefRpc {
  @IsString()
  @Length(1, 200)
  schedule!: string;
}

/** `PUT /api/scheduled-jobs/{namespace}/{id}/labels` (body as the job's: `{labels}`): the labels of each later run. */
export class UpdateScheduledJobLabelsRpc extends ScheduledJobRefRpc {
  @IsJobLabels()
  labels!: Record<string, string>;
}

export class ListScheduledJobsRpc {
  @Matches(NAME_PATTERN)
  namespace!: string;
}

export class ScheduledJobStatusView {
  @ApiPropertyOptional({ type: String, nullable: true }) lastJobId?: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) nextJobRunAt?: string | null;
}

/** What `@huggingface/hub`'s scheduled-job functions read (ApiScheduledJob), plus owner and status. */
export class ScheduledJobView {
  @ApiProperty({ enum: ['scheduled-job'] }) type!: 'scheduled-job';
  @ApiProperty() id!: string;
  @ApiProperty() schedule!: string;
  @ApiProperty() suspend!: boolean;
  @ApiProperty() concurrency!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: JobOwnerView }) owner!: JobOwnerView;
  @ApiProperty({ type: JobUserRefView }) createdBy!: JobUserRefView;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'the job object of each run (secrets as names with null values)',
  })
  jobSpec!: Record<string, unknown>;
  @ApiProperty({ type: ScheduledJobStatusView }) status!: ScheduledJobStatusView;
}
