import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ScimListRpc, type ScimPage, type ScimUserRecord, ScimRpc } from '@hub/organizations-contract';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { scimOrganization } from './scim-org';
import { ScimUsersStore } from './scim-users.store';
import { RpcHandler } from '@hub/messaging';

/** A page of the organization's SCIM Users, filtered and sorted (RFC 7644 3.4.2). */
@Injectable()
export class ListScimUsersUseCase {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(ScimRpc.ListUsers)
  async execute(dto: ScimListRpc): Promise<ScimPage<ScimUserRecord>> {
    const org = await scimOrganization(this.ds.manager, dto.organization);
    const { total, items } = await ScimUsersStore.list(this.ds.manager, org.id, dto);
    return { totalResults: total, startIndex: dto.startIndex, items };
  }
}
