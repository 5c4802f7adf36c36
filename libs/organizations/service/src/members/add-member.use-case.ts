import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type AddMemberRpc, type MemberView, OrganizationsRpc } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { recordAudit } from '../audit/record-audit';
import { OrganizationNotFoundError } from '../organizations/organizations.errors';
import { OrganizationsStore } from '../organizations/organizations.store';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { toMemberView } from './member.view';
import { MembersStore } from './members.store';
import { recordMembershipChanged } from './membership-events';

/** Adds a member, or changes the role of an existing one; the change and its events commit together. */
@Injectable()
export class AddMemberUseCase {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    private readonly outbox: Outbox,
  ) {}

  @RpcHandler(OrganizationsRpc.AddMember)
  async execute(dto: AddMemberRpc, ctx: RequestContext): Promise<MemberView> {
    const org = await OrganizationsStore.byName(this.ds.manager, dto.organization);
    if (!org) throw new OrganizationNotFoundError(dto.organization);
    const key = { organizationId: org.id, userId: dto.user.id };
    const member = await this.outbox.transaction(async (m) => {
      const existing = await MembersStore.get(m, key);
      await MembersStore.upsert(m, { ...key, userName: dto.user.name, role: dto.role });
      if (existing?.role !== dto.role) await recordMembershipChanged(this.outbox, m, org.id, [dto.user.id]);
      if (!existing) {
        await recordAudit(this.outbox, m, ctx, org, 'org.add_user', `${dto.user.name} added as ${dto.role}`, {
          user: dto.user.name,
          role: dto.role,
        });
      } else if (existing.role !== dto.role) {
        await recordAudit(this.outbox, m, ctx, org, 'org.change_role', `${dto.user.name} is now ${dto.role}`, {
          user: dto.user.name,
          from: existing.role,
          to: dto.role,
        });
      }
      return MembersStore.getOrFail(m, key);
    });
    return toMemberView(member);
  }
}
