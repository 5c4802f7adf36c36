import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ScimGroupRecord, type ScimListRpc, type ScimPage, ScimRpc } from '@hub/organizations-contract';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { ScimGroupsStore } from './scim-groups.store';
import { scimOrganization } from './scim-org';
import { RpcHandler } from '@hub/messaging';

/** A page of the organization's SCIM Groups, filtered and sorted (RFC 7644 3.4.2). */
@Injectable()
export class ListScimGroupsUseCase {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(ScimRpc.ListGroups)
  async execute(dto: ScimListRpc): Promise<ScimPage<ScimGroupRecord>> {
    const org = await scimOrganization(this.ds.manager, dto.organization);
    const { total, items } = await ScimGroupsStore.list(this.ds.manager, org.id, dto);
    return { totalResults: total, startIndex: dto.startIndex, items };
  }
}
