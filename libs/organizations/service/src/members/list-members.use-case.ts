import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type MemberView, type OrganizationRefRpc, OrganizationsRpc } from '@hub/organizations-contract';
import { OrganizationNotFoundError } from '../organizations/organizations.errors';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { MembersStore } from './members.store';
import { RpcHandler } from '@hub/messaging';

/** The organization's active members, by name; one query (no row: no such organization). */
@Injectable()
export class ListMembersUseCase {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(OrganizationsRpc.ListMembers)
  async execute({ organization }: OrganizationRefRpc): Promise<MemberView[]> {
    const rows = await MembersStore.list(this.ds.manager, organization);
    if (rows.length === 0) throw new OrganizationNotFoundError(organization);
    return rows.flatMap((r) =>
      r.user_id === null ? [] : [{ userId: r.user_id, user: r.user_name, role: r.role, addedAt: r.added_at }],
    );
  }
}
