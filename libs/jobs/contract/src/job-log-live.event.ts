import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Min,
  ValidateNested,
} from 'class-validator';
import { eventFamily } from '@hub/contracts';

/** One log line as it was printed: `seq` is the one it is stored under (the backfill's). */
export class JobLogLiveLine {
  @IsInt()
  @Min(1)
  seq!: number;

  @IsString()
  data!: string;

  @IsISO8601()
  timestamp!: string;
}

/**
 * `live.job-log.<jobId>` (core NATS, never stored; decision 0637): a job's log lines pushed
 * from its runner to the open log streams as they are printed, a beat while it runs quietly, and
 * `ended` once its last line is stored. `after` is the seq of the line this replica published just
 * before the first one here (0: none): a stream that emitted less than that missed lines (printed
 * before it subscribed, or dropped while it fell behind) and reads them from the stored log.
 * Outside `hub.>` on purpose: internal to the hub like an RPC subject (no stream, not in the
 * AsyncAPI contract, not readable by other teams' subscriber user: users' output is for their own
 * viewers only).
 */
export class JobLogLiveEvent {
  @IsInt()
  @Min(0)
  after!: number;

  @IsArray()
  @ArrayMaxSize(65_536)
  @ValidateNested({ each: true })
  @Type(() => JobLogLiveLine)
  lines!: JobLogLiveLine[];

  @IsOptional()
  @IsBoolean()
  ended?: boolean;
}

/** Per job: `JobLogLive.of(jobId)`; in the all-in-one hub the in-process LiveBus carries it. */
export const JobLogLive = eventFamily<JobLogLiveEvent>('live.job-log', JobLogLiveEvent);
