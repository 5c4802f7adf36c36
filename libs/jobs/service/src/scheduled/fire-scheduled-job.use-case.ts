import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type JobView, TERMINAL_JOB_STAGES } from '@hub/jobs-contract';
import { CreateJobUseCase } from '../jobs/create-job.use-case';
import { JobStore } from '../jobs/job-store';
import { type ScheduledJobEntity } from './scheduled-job.entity';
import { ScheduledJobStore } from './scheduled-job-store';

/** One firing (a tick or a run-now): a job with initiator `scheduled-job`; null when skipped (concurrency off, previous run active). */
@Injectable()
export class FireScheduledJobUseCase {
  constructor(
    private readonly jobs: JobStore,
    private readonly store: ScheduledJobStore,
    private readonly createJob: CreateJobUseCase,
  ) {}

  async execute(s: ScheduledJobEntity, ctx: RequestContext): Promise<JobView | null> {
    if (!s.concurrency && s.lastJobId) {
      const last = await this.jobs.byId(s.lastJobId);
      if (last && !TERMINAL_JOB_STAGES.has(last.stage)) return null;
    }
    const job = await this.createJob.execute(
      {
        namespace: s.namespace,
        spec: { ...s.jobSpec },
        initiator: { type: 'scheduled-job', id: s.id },
        owner: s.owner,
        createdBy: s.createdBy,
      },
      ctx,
      s.secretValues,
    );
    await this.store.setLastJob(s.id, job.id);
    return job;
  }
}
