import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type JobView, TERMINAL_JOB_STAGES } from '@hub/jobs-contract';
import { CreateJobUseCase } from '../jobs/create-job.use-case';
import { JOBS_DS } from '../jobs.di';
import { JobsStore } from '../jobs/jobs.store';
import { type ScheduledJobEntity } from './scheduled-job.entity';
import { ScheduledJobsStore } from './scheduled-jobs.store';

/** One firing (a tick or a run-now): a job with initiator `scheduled-job`; null when skipped (concurrency off, previous run active). */
@Injectable()
export class FireScheduledJobUseCase {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    private readonly createJob: CreateJobUseCase,
  ) {}

  async execute(s: ScheduledJobEntity, ctx: RequestContext): Promise<JobView | null> {
    if (!s.concurrency && s.lastJobId) {
      const last = await JobsStore.byId(this.ds.manager, s.lastJobId);
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
    await ScheduledJobsStore.setLastJob(this.ds.manager, s.id, job.id);
    return job;
  }
}
