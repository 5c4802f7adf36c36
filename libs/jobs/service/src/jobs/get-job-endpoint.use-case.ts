import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { NotFoundError } from '@hub/contracts';
import { type JobEndpointAnswer, type JobEndpointRpc, JobsRpc } from '@hub/jobs-contract';
import { JOBS_DS } from '../jobs.di';
import { JobsStore } from './jobs.store';
import { RpcHandler } from '@hub/messaging';

/** Where a running job's exposed port answers (its container's address on the jobs network). */
@Injectable()
export class GetJobEndpointUseCase {
  constructor(@InjectDataSource(JOBS_DS) private readonly ds: DataSource) {}

  @RpcHandler(JobsRpc.Endpoint)
  async execute(dto: JobEndpointRpc): Promise<JobEndpointAnswer> {
    const j = await JobsStore.byId(this.ds.manager, dto.jobId);
    if (!j || j.stage === 'DELETED' || !j.spec.expose?.ports.includes(dto.port))
      throw new NotFoundError(`Job ${dto.jobId} does not expose port ${dto.port}`);
    const handle = j.runHandle;
    const address = j.stage === 'RUNNING' && handle?.kind === 'container' ? handle.address : undefined;
    return {
      owner: { id: j.owner.id, name: j.owner.name, type: j.owner.type },
      stage: j.stage,
      public: j.spec.expose.portsPublic?.includes(dto.port) ?? false,
      target: address ? { host: address, port: dto.port } : null,
    };
  }
}
