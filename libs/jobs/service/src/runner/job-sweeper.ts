import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { Outbox } from '@hub/messaging';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS } from '../jobs.di';
import { recordStatus } from '../jobs/job-events';
import { ACTIVE_STAGES, JobsStore } from '../jobs/jobs.store';
import { JOB_RUNNER, type JobRunner } from './job-runner';
import { bootId, stillRunning } from './process-identity';

/**
 * Settles jobs whose replica is gone, and stops what they left running: at once for a replica of
 * this machine whose process is dead (a crash and restart), after HUB_JOBS_STALE_MS of silence
 * for any other (another machine: its processes are not ours to kill; a Kubernetes Job is).
 */
@Injectable()
export class JobSweeper {
  private readonly logger = new Logger('JobSweeper');

  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
    @Inject(JOB_RUNNER) private readonly runner: JobRunner,
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
  ) {}

  /** `replica`: this replica's token; `own`: the jobs it drives (still SCHEDULING ones have no runner yet): never swept. */
  async sweep(replica: string, own: ReadonlySet<string>): Promise<void> {
    for (const o of await JobsStore.orphansOf(this.ds.manager, bootId(), replica)) {
      if (own.has(o.id) || (o.handle.supervisor && stillRunning(o.handle.supervisor))) continue;
      await this.settle(o.id, 'the jobs service stopped while this job ran; its processes were killed');
    }
    for (const id of await JobsStore.stale(this.ds.manager, this.config.HUB_JOBS_STALE_MS, replica)) {
      if (own.has(id)) continue;
      await this.settle(id, 'the jobs service stopped while this job ran; it was not restarted');
    }
  }

  private async settle(id: string, message: string): Promise<void> {
    const settled = await this.outbox.transaction(async (m) => {
      const j = await JobsStore.transition(m, id, ACTIVE_STAGES, {
        stage: 'ERROR',
        message,
        finishedAt: new Date(),
        runner: null,
      });
      if (j) await recordStatus(this.outbox, m, j);
      return j;
    });
    if (!settled) return;
    this.logger.warn(`settled job ${id}: its replica went away`);
    const handle = settled.runHandle;
    if (handle)
      await this.runner
        .reap(handle)
        .catch((e: unknown) => this.logger.warn(`job ${id}: could not stop what it left: ${String(e)}`));
  }
}
