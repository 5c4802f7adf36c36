import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ScimGroupRecord, type ScimResourceRpc, ScimRpc } from '@hub/organizations-contract';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { ScimGroupsStore } from './scim-groups.store';
import { scimOrganization } from './scim-org';
import { RpcHandler } from '@hub/messaging';

@Injectable()
export class GetScimGroupUseCase {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(ScimRpc.GetGroup)
  async execute(dto: ScimResourceRpc): Promise<ScimGroupRecord> {
    const org = await scimOrganization(this.ds.manager, dto.organization);
    return ScimGroupsStore.get(this.ds.manager, org.id, dto.id);
  }
}
