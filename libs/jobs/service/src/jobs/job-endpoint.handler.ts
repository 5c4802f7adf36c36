import { NotFoundError } from '@hub/contracts';
import { type JobEndpointAnswer, JobEndpointRpc, JobsRpc } from '@hub/jobs-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { JobStore } from './job-store';

/** `jobs.job.endpoint`: where a running job's exposed port answers (its container's address on the jobs network). */
@RpcController()
export class JobEndpointHandler {
  constructor(private readonly store: JobStore) {}

  @RpcHandler(JobsRpc.Endpoint)
  async onEndpoint(dto: JobEndpointRpc): Promise<JobEndpointAnswer> {
    const j = await this.store.byId(dto.jobId);
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
