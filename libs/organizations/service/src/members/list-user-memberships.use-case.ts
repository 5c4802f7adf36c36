import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type UserMembership, type ListForUserRpc, OrganizationsRpc } from '@hub/organizations-contract';
import { toOrganizationView } from '../organizations/organization.view';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.di';
import { MembersStore } from './members.store';
import { RpcHandler } from '@hub/messaging';

/** The organizations a user is an active member of, with the role (whoami). */
@Injectable()
export class ListUserMembershipsUseCase {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
  ) {}

  @RpcHandler(OrganizationsRpc.ListForUser)
  async execute({ userId }: ListForUserRpc): Promise<UserMembership[]> {
    const rows = await MembersStore.listForUser(this.ds.manager, userId);
    return rows.map((r) => ({
      organization: toOrganizationView(
        { id: r.id, name: r.name, fullname: r.fullname, plan: r.plan, createdAt: new Date(r.created_at) },
        this.config.publicUrl,
      ),
      role: r.role,
    }));
  }
}
