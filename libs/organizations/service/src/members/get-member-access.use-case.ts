import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type OrganizationAccess, type GetAccessRpc, OrganizationsRpc } from '@hub/organizations-contract';
import { toOrganizationView } from '../organizations/organization.view';
import { OrganizationNotFoundError } from '../organizations/organizations.errors';
import { OrganizationsStore } from '../organizations/organizations.store';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.di';
import { MembersStore } from './members.store';
import { RpcHandler } from '@hub/messaging';

/** The organization and the user's role in it (null: not an active member), what org-scoped authorization reads. */
@Injectable()
export class GetMemberAccessUseCase {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
  ) {}

  @RpcHandler(OrganizationsRpc.GetAccess)
  async execute({ organization, userId }: GetAccessRpc): Promise<OrganizationAccess> {
    const org = await OrganizationsStore.byName(this.ds.manager, organization);
    if (!org) throw new OrganizationNotFoundError(organization);
    const member = await MembersStore.get(this.ds.manager, { organizationId: org.id, userId });
    // A suspended member (SCIM active: false) is no member until the identity provider restores it.
    return {
      organization: toOrganizationView(org, this.config.publicUrl),
      role: member && !member.suspended ? member.role : null,
    };
  }
}
