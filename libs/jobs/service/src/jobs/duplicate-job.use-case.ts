import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type DuplicateJobRpc, JobsRpc, type JobView } from '@hub/jobs-contract';
import { CreateJobUseCase } from './create-job.use-case';
import { JOBS_DS } from '../jobs.di';
import { JobsStore } from './jobs.store';
import { RpcHandler } from '@hub/messaging';

/** A new job with the spec, sealed secrets and service additions of an existing one, started by the caller. */
@Injectable()
export class DuplicateJobUseCase {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    private readonly createJob: CreateJobUseCase,
  ) {}

  @RpcHandler(JobsRpc.Duplicate)
  async execute(dto: DuplicateJobRpc, ctx: RequestContext): Promise<JobView> {
    const j = await JobsStore.find(this.ds.manager, dto.namespace, dto.jobId);
    return this.createJob.execute(
      {
        namespace: j.namespace,
        spec: { ...j.spec },
        initiator: { type: 'user', id: dto.createdBy.id, name: dto.createdBy.name },
        environment: j.extraEnv,
        owner: j.owner,
        createdBy: dto.createdBy,
      },
      ctx,
      j.secretValues,
    );
  }
}
