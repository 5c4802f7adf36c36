import { Inject, Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type AddResourceGroupUsersRpc, ResourceGroupsRpc, type ResourceGroupView } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { recordAudit } from '../audit/record-audit';
import { recordMembershipChanged } from '../members/membership-events';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG } from '../organizations.di';
import { lockedGroup } from './group-scope';
import { readResourceGroup } from './resource-group.view';
import { ResourceGroupsStore } from './resource-groups.store';

/** Adds users to a group (a user already in it gets the new role); the change and its events commit together. */
@Injectable()
export class AddResourceGroupUsersUseCase {
  constructor(
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
    private readonly outbox: Outbox,
  ) {}

  @RpcHandler(ResourceGroupsRpc.AddUsers)
  execute(dto: AddResourceGroupUsersRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.outbox.transaction(async (m) => {
      const org = await lockedGroup(m, dto, 'users');
      for (const u of dto.users) await ResourceGroupsStore.upsertUser(m, dto.groupId, u, ctx.userName ?? null);
      await recordMembershipChanged(
        this.outbox,
        m,
        org.id,
        dto.users.map((u) => u.id),
      );
      await recordAudit(
        this.outbox,
        m,
        ctx,
        org,
        'resource_group.add_users',
        `${dto.users.length} user(s) added to resource group ${dto.groupId}`,
        {
          resourceGroupId: dto.groupId,
          users: dto.users.map((u) => ({ user: u.name, role: u.role })),
        },
      );
      return (await readResourceGroup(m, dto.groupId, this.config.publicUrl)) as ResourceGroupView;
    });
  }
}
