import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type DuplicateJobRpc, type JobView } from '@hub/jobs-contract';
import { CreateJobUseCase } from './create-job.use-case';
import { JobStore } from './job-store';

/** A new job with the spec, sealed secrets and service additions of an existing one, started by the caller. */
@Injectable()
export class DuplicateJobUseCase {
  constructor(
    private readonly store: JobStore,
    private readonly createJob: CreateJobUseCase,
  ) {}

  async execute(dto: DuplicateJobRpc, ctx: RequestContext): Promise<JobView> {
    const j = await this.store.find(dto.namespace, dto.jobId);
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
