import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { HubError, type RequestContext, roleGrantsAccess } from '@hub/contracts';
import { type JobSpecAnswer, type JobSpecRpc, JobsRpc } from '@hub/jobs-contract';
import { OrganizationsRpc } from '@hub/organizations-contract';
import { RpcClient, RpcHandler } from '@hub/messaging';
import { JOBS_DS } from '../jobs.di';
import { JobsStore } from './jobs.store';
import { JobNotFoundError } from './jobs.errors';

/**
 * The spec of a job for a webhook's `jobSourceId` (decision 0501): readable when the job is in the
 * reader's own namespace, or in an organization whose role gives the reader access (not no_access). Anything else is a 404
 * like a missing job, so ids of other namespaces cannot be probed. Secret values stay here.
 */
@Injectable()
export class GetJobSpecUseCase {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    private readonly rpc: RpcClient,
  ) {}

  @RpcHandler(JobsRpc.Spec)
  async execute(dto: JobSpecRpc, ctx: RequestContext): Promise<JobSpecAnswer> {
    const job = await JobsStore.byId(this.ds.manager, dto.jobId);
    const missing = new JobNotFoundError(dto.jobId);
    if (!job || job.stage === 'DELETED') throw missing;
    if (!(await this.canRead(job.owner, dto.reader, ctx))) throw missing;
    return { namespace: job.namespace, spec: job.spec };
  }

  private async canRead(
    owner: { id: string; name: string; type: 'user' | 'org' },
    reader: { id: string },
    ctx: RequestContext,
  ): Promise<boolean> {
    if (owner.type === 'user') return owner.id === reader.id;
    try {
      const access = await this.rpc.call(
        OrganizationsRpc.GetAccess,
        { organization: owner.name, userId: reader.id },
        ctx,
      );
      return roleGrantsAccess(access.role);
    } catch (err) {
      if (err instanceof HubError && err.status === 404) return false;
      throw err;
    }
  }
}
