import { Injectable } from '@nestjs/common';
import { type EntityManager } from 'typeorm';
import { type ChangeRoleRpc, type MemberRefRpc, type MemberView, type RequestContext } from '@hub/contracts';
import { Outbox } from '@hub/messaging';
import { recordAudit } from '../audit/record-audit';
import { OrganizationEntity } from '../organizations/organization.entity';
import { OrganizationNotFoundError } from '../organizations/organizations.errors';
import { leaveOrganization } from './leave-organization';
import { MemberEntity } from './member.entity';
import { recordMembershipChanged } from './membership-events';
import { toMemberView } from './member.view';
import { keepAnAdmin } from './keep-an-admin';
import { MemberNotFoundError } from './members.errors';

/** The admin API's removal and role change of a member; each change, its audit event and the membership event commit together. */
@Injectable()
export class MemberAdminUseCases {
  constructor(private readonly outbox: Outbox) {}

  private async scope(m: EntityManager, dto: MemberRefRpc): Promise<{ org: OrganizationEntity; member: MemberEntity }> {
    const org = await m
      .createQueryBuilder(OrganizationEntity, 'o')
      .setLock('pessimistic_write')
      .where('lower(o.name) = lower(:name)', { name: dto.organization })
      .getOne();
    if (!org) throw new OrganizationNotFoundError(dto.organization);
    const member = await m.findOneBy(MemberEntity, { organizationId: org.id, userId: dto.userId });
    if (!member) throw new MemberNotFoundError(org.name, dto.userId);
    return { org, member };
  }

  remove(dto: MemberRefRpc, ctx: RequestContext): Promise<{ removed: true }> {
    return this.outbox.transaction(async (m) => {
      const { org, member } = await this.scope(m, dto);
      await keepAnAdmin(m, org, member);
      await leaveOrganization(m, org.id, member.userId);
      await recordMembershipChanged(this.outbox, m, org.id, [member.userId]);
      await recordAudit(this.outbox, m, ctx, org, 'org.remove_user', `${member.userName} removed`, {
        user: member.userName,
        role: member.role,
      });
      return { removed: true as const };
    });
  }

  changeRole(dto: ChangeRoleRpc, ctx: RequestContext): Promise<MemberView> {
    return this.outbox.transaction(async (m) => {
      const { org, member } = await this.scope(m, dto);
      if (member.role === dto.role) return toMemberView(member);
      if (dto.role !== 'admin') await keepAnAdmin(m, org, member);
      await m.update(MemberEntity, { organizationId: org.id, userId: member.userId }, { role: dto.role });
      await recordMembershipChanged(this.outbox, m, org.id, [member.userId]);
      await recordAudit(this.outbox, m, ctx, org, 'org.change_role', `${member.userName} is now ${dto.role}`, {
        user: member.userName,
        from: member.role,
        to: dto.role,
      });
      return toMemberView({ ...member, role: dto.role });
    });
  }
}
