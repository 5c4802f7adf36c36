import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ResourceGroupRefRpc, ResourceGroupsRpc, type ResourceGroupView } from '@hub/organizations-contract';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.di';
import { groupOrganization } from './group-scope';
import { readResourceGroup } from './resource-group.view';
import { ResourceGroupNotFoundError } from './resource-groups.errors';
import { ResourceGroupsStore } from './resource-groups.store';
import { RpcHandler } from '@hub/messaging';

/** One group of the organization; another organization's group is "not found", like a missing one. */
@Injectable()
export class GetResourceGroupUseCase {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
  ) {}

  @RpcHandler(ResourceGroupsRpc.Get)
  async execute(dto: ResourceGroupRefRpc): Promise<ResourceGroupView> {
    const m = this.ds.manager;
    const org = await groupOrganization(m, dto.organization);
    if (!(await ResourceGroupsStore.existsInOrganization(m, dto.groupId, org.id))) {
      throw new ResourceGroupNotFoundError(org.name, dto.groupId);
    }
    return (await readResourceGroup(m, dto.groupId, this.config.publicUrl)) as ResourceGroupView;
  }
}
