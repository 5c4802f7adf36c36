import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS } from '../jobs.di';
import { nextRun, parseCron } from './cron';
import { ScheduledJobsStore } from './scheduled-jobs.store';
import { FireScheduledJobUseCase } from './fire-scheduled-job.use-case';

/**
 * Fires due schedules. Each replica ticks; a due row is claimed (`FOR UPDATE SKIP LOCKED`, its
 * `next_run_at` moved on in the same transaction) so a tick fires once across replicas. The job
 * is created after the claim commits: a crash in between loses that one firing, never doubles it.
 */
@Injectable()
export class ScheduledJobsTicker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ScheduledJobs');
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    private readonly fire: FireScheduledJobUseCase,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.HUB_JOBS_SCHEDULER_TICK_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async tick(): Promise<number> {
    if (this.busy) return 0;
    this.busy = true;
    try {
      const due = await this.ds.transaction(async (m) => {
        const rows = await ScheduledJobsStore.due(m);
        const now = new Date();
        for (const s of rows) await ScheduledJobsStore.setNextRun(m, s.id, nextRun(parseCron(s.schedule), now));
        return rows;
      });
      for (const s of due) {
        const job = await this.fire.execute(s, { requestId: `schedule-${randomUUID()}` }).catch((e: unknown) => {
          this.logger.warn(`scheduled job ${s.id} could not fire: ${String(e)}`);
          return undefined;
        });
        if (job === null) this.logger.log(`scheduled job ${s.id}: skipped, the previous run is still going`);
      }
      return due.length;
    } catch (e) {
      this.logger.warn(`tick failed: ${String(e)}`);
      return 0;
    } finally {
      this.busy = false;
    }
  }
}
