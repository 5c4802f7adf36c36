import { Inject, Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type CreateResourceGroupRpc, ResourceGroupsRpc, type ResourceGroupView } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { recordAudit } from '../audit/record-audit';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG } from '../organizations.di';
import { groupOrganization } from './group-scope';
import { readResourceGroup } from './resource-group.view';
import { ResourceGroupsStore } from './resource-groups.store';

/** A new resource group; it and its audit event commit together (decision 0007). */
@Injectable()
export class CreateResourceGroupUseCase {
  constructor(
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
    private readonly outbox: Outbox,
  ) {}

  @RpcHandler(ResourceGroupsRpc.Create)
  execute(dto: CreateResourceGroupRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.outbox.transaction(async (m) => {
      const org = await groupOrganization(m, dto.organization);
      const id = newObjectId();
      const autoJoin = dto.autoJoin?.enabled
        ? { enabled: true, role: dto.autoJoin.role, ...(dto.autoJoin.scope ? { scope: dto.autoJoin.scope } : {}) }
        : { enabled: false };
      await ResourceGroupsStore.insert(m, {
        id,
        organizationId: org.id,
        name: dto.name,
        description: dto.description ?? null,
        autoJoin,
      });
      await recordAudit(this.outbox, m, ctx, org, 'resource_group.create', `Resource group ${dto.name} created`, {
        resourceGroupId: id,
        name: dto.name,
      });
      return (await readResourceGroup(m, id, this.config.publicUrl)) as ResourceGroupView;
    });
  }
}
