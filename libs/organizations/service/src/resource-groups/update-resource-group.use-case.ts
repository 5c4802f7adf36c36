import { Inject, Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { ResourceGroupsRpc, type ResourceGroupView, type UpdateResourceGroupRpc } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { recordAudit } from '../audit/record-audit';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG } from '../organizations.di';
import { lockedGroup } from './group-scope';
import { readResourceGroup } from './resource-group.view';
import { ResourceGroupsStore } from './resource-groups.store';

/** Renames a group or changes its description; the change and its audit event commit together. */
@Injectable()
export class UpdateResourceGroupUseCase {
  constructor(
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
    private readonly outbox: Outbox,
  ) {}

  @RpcHandler(ResourceGroupsRpc.Update)
  execute(dto: UpdateResourceGroupRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.outbox.transaction(async (m) => {
      const org = await lockedGroup(m, dto);
      const { name, description } = dto.changes;
      await ResourceGroupsStore.update(m, dto.groupId, { name, description });
      await recordAudit(
        this.outbox,
        m,
        ctx,
        org,
        'resource_group.settings',
        `Resource group ${dto.groupId} settings changed`,
        {
          resourceGroupId: dto.groupId,
          ...dto.changes,
        },
      );
      return (await readResourceGroup(m, dto.groupId, this.config.publicUrl)) as ResourceGroupView;
    });
  }
}
