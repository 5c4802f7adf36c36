import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HubConfig } from '@hub/config';

export class JobsConfig extends HubConfig {
  /** Where jobs run: `local` (child processes on this machine, for trusted users) or `kubernetes` (not built yet). */
  @IsIn(['local'])
  HUB_JOBS_RUNNER: string = 'local';

  /** Host part of exposed ports: `https://<job_id>--<port>.<HUB_JOBS_DOMAIN>`. */
  @Matches(/^[a-z0-9.-]+$/, { message: 'HUB_JOBS_DOMAIN must be a host name' })
  HUB_JOBS_DOMAIN: string = 'jobs.localhost';

  /** Host of `ssh://<job_id>@<HUB_JOBS_SSH_HOST>`. */
  @Matches(/^[a-z0-9.:-]+$/, { message: 'HUB_JOBS_SSH_HOST must be a host name' })
  HUB_JOBS_SSH_HOST: string = 'ssh.jobs.localhost';

  /** Scratch directories of local jobs (one per run, removed after). Default: <tmpdir>/hub-jobs (the unprivileged job user must reach it). */
  @IsOptional() @IsString()
  HUB_JOBS_WORK_DIR?: string;

  /** When the hub runs as root, local jobs run as this unprivileged user (uid or name). */
  @IsString()
  HUB_JOBS_RUN_AS_USER: string = 'nobody';

  /** Log lines kept per job (oldest dropped first). */
  @IsInt() @Min(10) @Max(1_000_000)
  HUB_JOBS_LOG_MAX_LINES: number = 10_000;

  /** Longest kept log line in characters (longer lines are cut). */
  @IsInt() @Min(80) @Max(1_000_000)
  HUB_JOBS_LOG_MAX_LINE_LENGTH: number = 8192;

  /** A running job's replica touches it this often; one silent for HUB_JOBS_STALE_MS is settled as ERROR. */
  @IsInt() @Min(100) @Max(600_000)
  HUB_JOBS_HEARTBEAT_MS: number = 2000;

  @IsInt() @Min(500) @Max(3_600_000)
  HUB_JOBS_STALE_MS: number = 15_000;

  /** How often each replica looks for due scheduled jobs (a firing is claimed once across replicas). */
  @IsInt() @Min(100) @Max(60_000)
  HUB_JOBS_SCHEDULER_TICK_MS: number = 1000;

  get workDir(): string {
    return this.HUB_JOBS_WORK_DIR ?? join(tmpdir(), 'hub-jobs');
  }
}
