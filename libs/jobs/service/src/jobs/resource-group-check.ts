import { Injectable } from '@nestjs/common';
import { HubError, type RequestContext } from '@hub/contracts';
import { ResourceGroupsRpc } from '@hub/organizations-contract';
import { RpcClient } from '@hub/messaging';
import { type JobOwner } from './job.entity';
import { ForeignResourceGroupError } from './jobs.errors';

/**
 * A job (or scheduled job) may name only a resource group of the organization that owns it:
 * another organization's id would file the job under that organization's group. A user's
 * namespace owns no resource groups. Asked of the organizations service, which owns the groups.
 */
@Injectable()
export class ResourceGroupCheck {
  constructor(private readonly rpc: RpcClient) {}

  async assertOwnedBy(
    owner: JobOwner,
    resourceGroupId: string | undefined,
    field: string,
    ctx: RequestContext,
  ): Promise<void> {
    if (resourceGroupId === undefined) return;
    if (owner.type === 'user') throw new ForeignResourceGroupError(field, resourceGroupId, owner.name);
    try {
      await this.rpc.call(
        ResourceGroupsRpc.Get,
        { organization: owner.name, groupId: resourceGroupId.toLowerCase() },
        ctx,
      );
    } catch (err) {
      if (err instanceof HubError && err.status === 404)
        throw new ForeignResourceGroupError(field, resourceGroupId, owner.name);
      throw err;
    }
  }
}
