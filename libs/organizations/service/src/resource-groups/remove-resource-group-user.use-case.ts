import { Inject, Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import {
  type RemoveResourceGroupUserRpc,
  ResourceGroupsRpc,
  type ResourceGroupView,
} from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { recordAudit } from '../audit/record-audit';
import { recordMembershipChanged } from '../members/membership-events';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG } from '../organizations.di';
import { lockedGroup } from './group-scope';
import { readResourceGroup } from './resource-group.view';
import { ResourceGroupUserNotFoundError } from './resource-groups.errors';
import { ResourceGroupsStore } from './resource-groups.store';

/** Takes a user out of a group; the change and its events commit together. */
@Injectable()
export class RemoveResourceGroupUserUseCase {
  constructor(
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
    private readonly outbox: Outbox,
  ) {}

  @RpcHandler(ResourceGroupsRpc.RemoveUser)
  execute(dto: RemoveResourceGroupUserRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.outbox.transaction(async (m) => {
      const org = await lockedGroup(m, dto, 'users');
      const user = await ResourceGroupsStore.user(m, dto.groupId, dto.userId);
      if (!user) throw new ResourceGroupUserNotFoundError(dto.groupId, dto.userId);
      await ResourceGroupsStore.removeUsers(m, dto.groupId, [dto.userId]);
      await recordMembershipChanged(this.outbox, m, org.id, [dto.userId]);
      await recordAudit(
        this.outbox,
        m,
        ctx,
        org,
        'resource_group.remove_users',
        `${user.userName} removed from resource group ${dto.groupId}`,
        {
          resourceGroupId: dto.groupId,
          users: [{ user: user.userName, role: user.role }],
        },
      );
      return (await readResourceGroup(m, dto.groupId, this.config.publicUrl)) as ResourceGroupView;
    });
  }
}
