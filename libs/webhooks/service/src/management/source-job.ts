import { HubError, type RequestContext } from '@hub/contracts';
import { type CreateJobDto, JobsRpc } from '@hub/jobs-contract';
import { type RpcClient } from '@hub/messaging';

type Owner = { ownerId: string; ownerName: string };
export type SourceSpec = Omit<CreateJobDto, 'secrets'>;

const specOf = (rpc: RpcClient, jobId: string, owner: Owner, ctx: RequestContext) =>
  rpc.call(JobsRpc.Spec, { jobId, reader: { id: owner.ownerId, name: owner.ownerName } }, ctx);

/** A jobSourceId must name a job the owner can read (decision 0501): else the jobs service's 404. */
export async function checkSourceJob(rpc: RpcClient, jobId: string, owner: Owner, ctx: RequestContext): Promise<void> {
  await specOf(rpc, jobId, owner, ctx);
}

/**
 * The specs of these source jobs as a trigger would start them now (decision 0630: a webhook
 * answers the job it starts, spec 2.4/2.5), one call per distinct id. A source that is gone or no
 * longer readable is left out: such a webhook answers its jobSourceId alone.
 */
export async function sourceSpecs(
  rpc: RpcClient,
  jobIds: string[],
  owner: Owner,
  ctx: RequestContext,
): Promise<Map<string, SourceSpec>> {
  const specs = new Map<string, SourceSpec>();
  await Promise.all(
    [...new Set(jobIds)].map(async (id) => {
      try {
        specs.set(id, (await specOf(rpc, id, owner, ctx)).spec);
      } catch (e) {
        if (!(e instanceof HubError && e.status === 404)) throw e;
      }
    }),
  );
  return specs;
}
