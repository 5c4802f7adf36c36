import { JobsRpc, type RequestContext } from '@hub/contracts';
import { type RpcClient } from '@hub/messaging';

/** A jobSourceId must name a job the owner can read (decision 0501): else the jobs service's 404. */
export async function checkSourceJob(
  rpc: RpcClient,
  jobId: string,
  owner: { ownerId: string; ownerName: string },
  ctx: RequestContext,
): Promise<void> {
  await rpc.call(JobsRpc.Spec, { jobId, reader: { id: owner.ownerId, name: owner.ownerName } }, ctx);
}
