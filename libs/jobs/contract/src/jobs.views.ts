import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ClosedSchema } from '@hub/contracts';
import { JobExposeDto, JobVolumeDto } from './create-job.dto';
import { JOB_FLAVORS, JOB_INITIATOR_TYPES, JOB_STAGES, type JobFlavor, type JobStage } from './jobs.enums';

const STRING_MAP = { type: 'object', additionalProperties: { type: 'string' } } as const;

@ClosedSchema()
export class JobOwnerView {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['user', 'org'] }) type!: 'user' | 'org';
  @ApiPropertyOptional({ format: 'uri', description: 'always on a job; a scheduled job answers without it' })
  avatarUrl?: string;
}

@ClosedSchema()
export class JobUserRefView {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
}

@ClosedSchema()
export class JobInitiatorView {
  @ApiProperty({ enum: JOB_INITIATOR_TYPES }) type!: (typeof JOB_INITIATOR_TYPES)[number];
  @ApiProperty() id!: string;
  @ApiPropertyOptional() name?: string;
  @ApiPropertyOptional({ format: 'uri', description: "with name: the initiating user's avatar" }) avatarUrl?: string;
}

@ClosedSchema()
export class JobStatusView {
  @ApiProperty({ enum: JOB_STAGES }) stage!: JobStage;
  @ApiProperty({ type: String, nullable: true }) message!: string | null;
  @ApiPropertyOptional() cancelReason?: string;
  @ApiProperty() failureCount!: number;
  @ApiPropertyOptional({ type: [String], description: 'https://<job_id>--<port>.{jobs_domain}, in expose.ports order' })
  exposeUrls?: string[];
  @ApiPropertyOptional({ description: 'ssh://<job_id>@{ssh_host}, only with ssh enabled' }) sshUrl?: string;
}

@ClosedSchema()
export class JobDurationsView {
  @ApiPropertyOptional() schedulingSecs?: number;
  @ApiPropertyOptional() runningSecs?: number;
  @ApiPropertyOptional() totalSecs?: number;
}

/**
 * Spec 2.2 Job, plus owner.type, type, labels and initiator (what the public clients read:
 * huggingface_hub's JobInfo requires owner.type); nothing else (decision 0620). The create body's
 * `timeoutSeconds` is answered as `timeout`; `attempts` and `ssh` stay internal.
 */
@ClosedSchema()
export class JobView {
  @ApiProperty({ enum: ['job'] }) type!: 'job';
  @ApiProperty() id!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'absent until the job starts' }) startedAt?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'absent until the job ends' }) finishedAt?: string;
  @ApiProperty({ type: JobOwnerView }) owner!: JobOwnerView;
  @ApiProperty({ type: JobUserRefView }) createdBy!: JobUserRefView;
  @ApiProperty({ type: JobInitiatorView }) initiator!: JobInitiatorView;
  @ApiPropertyOptional() dockerImage?: string;
  @ApiPropertyOptional() spaceId?: string;
  @ApiPropertyOptional({ type: [String] }) command?: string[];
  @ApiPropertyOptional({ type: [String] }) arguments?: string[];
  @ApiProperty(STRING_MAP) environment!: Record<string, string>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'null' },
    description: 'secret names; values are never returned',
  })
  secrets?: Record<string, null>;
  @ApiProperty({ enum: JOB_FLAVORS }) flavor!: JobFlavor;
  @ApiPropertyOptional({ enum: ['amd64', 'arm64'] }) arch?: 'amd64' | 'arm64';
  @ApiPropertyOptional({ description: 'seconds (the create body says timeoutSeconds)' }) timeout?: number;
  @ApiPropertyOptional({ description: 'retries so far (attempts used minus one)' }) retry?: number;
  @ApiProperty(STRING_MAP) labels!: Record<string, string>;
  @ApiPropertyOptional({ type: [JobVolumeDto] }) volumes?: JobVolumeDto[];
  @ApiPropertyOptional({ type: JobExposeDto }) expose?: JobExposeDto;
  @ApiPropertyOptional() resourceGroupId?: string;
  @ApiPropertyOptional({ type: JobDurationsView }) durations?: JobDurationsView;
  @ApiProperty({ type: JobStatusView }) status!: JobStatusView;
}

/** One line of a job's log as the jobs service keeps it. */
export class JobLogLine {
  @ApiProperty() seq!: number;
  @ApiProperty() data!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
}

export class JobLogsChunk {
  @ApiProperty({ type: [JobLogLine] }) lines!: JobLogLine[];
  @ApiProperty({ enum: JOB_STAGES }) stage!: JobStage;
}

export class JobPage {
  @ApiProperty({ type: [JobView] }) jobs!: JobView[];
  @ApiPropertyOptional() nextCursor?: string;
}

@ClosedSchema()
export class JobHardwareAccelerator {
  @ApiProperty({ enum: ['gpu', 'neuron'] }) type!: 'gpu' | 'neuron';
  @ApiProperty() model!: string;
  @ApiProperty() quantity!: string;
  @ApiProperty() vram!: string;
  @ApiProperty({ enum: ['Nvidia', 'AWS'] }) manufacturer!: 'Nvidia' | 'AWS';
}

@ClosedSchema()
@ApiExtraModels(JobHardwareAccelerator)
export class JobHardwareView {
  @ApiProperty({ enum: JOB_FLAVORS }) name!: JobFlavor;
  @ApiProperty() prettyName!: string;
  @ApiProperty() cpu!: string;
  @ApiProperty() ram!: string;
  @ApiProperty() ephemeralStorage!: string;
  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(JobHardwareAccelerator) }, { type: 'null' }] })
  accelerator!: JobHardwareAccelerator | null;
  @ApiProperty() unitCostMicroUSD!: number;
  @ApiProperty() unitCostUSD!: number;
  @ApiProperty() unitLabel!: string;
}

/** One GPU of a job in a sample (none yet: no runner here has GPUs, so `gpus` is always empty). */
@ClosedSchema()
export class JobGpuSample {
  @ApiProperty() utilization!: number;
  @ApiProperty() memory_used_bytes!: number;
  @ApiProperty() memory_total_bytes!: number;
}

/**
 * One resource sample of a running job, the `data:` of each metrics event, in the public hub's
 * shape (what `hf jobs stats` reads). A figure the runner cannot know is 0, never missing
 * (decision 0630); the totals are the job's allowance, so they are never 0.
 */
@ClosedSchema()
@ApiExtraModels(JobGpuSample)
export class JobMetricsSample {
  @ApiProperty({ description: 'CPU in use, percent of one CPU (200 = two CPUs busy)' }) cpu_usage_pct!: number;
  @ApiProperty({ description: 'CPUs the job may use, in millicores' }) cpu_millicores!: number;
  @ApiProperty() memory_used_bytes!: number;
  @ApiProperty({ description: 'memory the job may use' }) memory_total_bytes!: number;
  @ApiProperty({ description: 'bytes per second received' }) rx_bps!: number;
  @ApiProperty({ description: 'bytes per second sent' }) tx_bps!: number;
  @ApiProperty({ type: [JobGpuSample], description: 'one per GPU; empty without' }) gpus!: JobGpuSample[];
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
}

export class JobMetricsAnswer {
  @ApiProperty({ enum: JOB_STAGES }) stage!: JobStage;
  @ApiPropertyOptional({ type: JobMetricsSample }) sample?: JobMetricsSample;
}
