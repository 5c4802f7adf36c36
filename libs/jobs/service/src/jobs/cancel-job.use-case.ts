import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type JobRefRpc, JobsRpc, type JobView, TERMINAL_JOB_STAGES } from '@hub/jobs-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS } from '../jobs.di';
import { recordJobAudit, recordStatus } from './job-events';
import { ACTIVE_STAGES, JobsStore } from './jobs.store';
import { JobRuns } from './job-runs';
import { toJobView, viewSettings } from './job.view';

/** Cancels an active job (a finished one is answered as it is): stored first, so any replica may answer. */
@Injectable()
export class CancelJobUseCase {
  constructor(
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
    private readonly runs: JobRuns,
  ) {}

  @RpcHandler(JobsRpc.Cancel)
  async execute(dto: JobRefRpc, ctx: RequestContext): Promise<JobView> {
    const settings = viewSettings(this.config);
    const j = await JobsStore.find(this.ds.manager, dto.namespace, dto.jobId);
    if (TERMINAL_JOB_STAGES.has(j.stage)) return toJobView(j, settings);
    // The stage change, its status event and the audit event commit together.
    const canceled = await this.outbox.transaction(async (m) => {
      const job = await JobsStore.transition(m, j.id, ACTIVE_STAGES, {
        stage: 'CANCELED',
        message: `Canceled by ${ctx.userName ?? 'the system'}`,
        finishedAt: new Date(),
        runner: null,
      });
      if (!job) return null;
      await recordStatus(this.outbox, m, job);
      await recordJobAudit(this.outbox, m, ctx, job, 'jobs.cancel', `Job ${job.id} canceled`);
      return job;
    });
    // Here or on the replica running it (its heartbeat sees the stage): the process tree is killed.
    this.runs.canceled(j.id);
    return toJobView(canceled ?? (await JobsStore.find(this.ds.manager, dto.namespace, dto.jobId)), settings);
  }
}
