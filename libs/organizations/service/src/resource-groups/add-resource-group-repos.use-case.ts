import { Inject, Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type AddResourceGroupReposRpc, ResourceGroupsRpc, type ResourceGroupView } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { recordAudit } from '../audit/record-audit';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG } from '../organizations.di';
import { lockedGroup } from './group-scope';
import { readResourceGroup } from './resource-group.view';
import { ResourceGroupsStore } from './resource-groups.store';

/** Adds repositories to a group (one already in it stays as it was); the change and its audit event commit together. */
@Injectable()
export class AddResourceGroupReposUseCase {
  constructor(
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
    private readonly outbox: Outbox,
  ) {}

  @RpcHandler(ResourceGroupsRpc.AddRepos)
  execute(dto: AddResourceGroupReposRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.outbox.transaction(async (m) => {
      const org = await lockedGroup(m, dto);
      for (const r of dto.repos) await ResourceGroupsStore.addRepo(m, dto.groupId, r, ctx.userName ?? null);
      await recordAudit(
        this.outbox,
        m,
        ctx,
        org,
        'repo.update_resource_group',
        `${dto.repos.length} repositories added to resource group ${dto.groupId}`,
        {
          resourceGroupId: dto.groupId,
          repos: dto.repos,
        },
      );
      return (await readResourceGroup(m, dto.groupId, this.config.publicUrl)) as ResourceGroupView;
    });
  }
}
