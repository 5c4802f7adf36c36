import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { repeatPass } from '@hub/persistence';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS } from '../jobs.di';
import { JobsStore } from './jobs.store';

const FIRST_PASS_AFTER_MS = 60_000;
const PASS_EVERY_MS = 3600_000;

/**
 * Finished jobs go HUB_JOBS_FINISHED_RETENTION_DAYS after they finished (decision 0206), in
 * batches of 1,000, hourly: never an active one, nor the last run of a scheduled job (its view
 * names it). Their log chunks go in the same statement.
 */
@Injectable()
export class FinishedJobsRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('FinishedJobsRetention');
  private stop?: () => void;

  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.stop = repeatPass(
      () => this.pass(),
      (err: unknown) => this.logger.warn({ err }, 'finished jobs retention pass failed'),
      {
        firstAfterMs: FIRST_PASS_AFTER_MS,
        everyMs: PASS_EVERY_MS,
      },
    );
  }

  onApplicationShutdown(): void {
    this.stop?.();
  }

  /** One pass; resolves with the jobs deleted. */
  async pass(): Promise<number> {
    const deleted = await JobsStore.deleteFinished(this.ds.manager, this.config.HUB_JOBS_FINISHED_RETENTION_DAYS);
    if (deleted > 0) this.logger.log(`deleted ${deleted} finished jobs past retention`);
    return deleted;
  }
}
