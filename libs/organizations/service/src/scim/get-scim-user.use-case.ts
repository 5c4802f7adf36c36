import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ScimResourceRpc, type ScimUserRecord, ScimRpc } from '@hub/organizations-contract';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { scimOrganization } from './scim-org';
import { ScimUsersStore } from './scim-users.store';
import { RpcHandler } from '@hub/messaging';

@Injectable()
export class GetScimUserUseCase {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(ScimRpc.GetUser)
  async execute(dto: ScimResourceRpc): Promise<ScimUserRecord> {
    const org = await scimOrganization(this.ds.manager, dto.organization);
    return ScimUsersStore.get(this.ds.manager, org.id, dto.id);
  }
}
