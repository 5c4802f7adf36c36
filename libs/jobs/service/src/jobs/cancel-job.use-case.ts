import { Inject, Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type JobRefRpc, type JobView, TERMINAL_JOB_STAGES } from '@hub/jobs-contract';
import { Outbox } from '@hub/messaging';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG } from '../jobs.di';
import { recordJobAudit } from './job-events';
import { ACTIVE_STAGES, JobStore } from './job-store';
import { JobRuns } from './job-runs';
import { toJobView, viewSettings } from './job.view';

/** Cancels an active job (a finished one is answered as it is): stored first, so any replica may answer. */
@Injectable()
export class CancelJobUseCase {
  constructor(
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    @Inject(Outbox) private readonly outbox: Outbox,
    private readonly store: JobStore,
    private readonly runs: JobRuns,
  ) {}

  async execute(dto: JobRefRpc, ctx: RequestContext): Promise<JobView> {
    const settings = viewSettings(this.config);
    const j = await this.store.find(dto.namespace, dto.jobId);
    if (TERMINAL_JOB_STAGES.has(j.stage)) return toJobView(j, settings);
    const canceled = await this.store.transition(
      j.id,
      ACTIVE_STAGES,
      {
        stage: 'CANCELED',
        message: `Canceled by ${ctx.userName ?? 'the system'}`,
        finishedAt: new Date(),
        runner: null,
      },
      (m, job) => recordJobAudit(this.outbox, m, ctx, job, 'jobs.cancel', `Job ${job.id} canceled`),
    );
    // Here or on the replica running it (its heartbeat sees the stage): the process tree is killed.
    this.runs.canceled(j.id);
    return toJobView(canceled ?? (await this.store.find(dto.namespace, dto.jobId)), settings);
  }
}
