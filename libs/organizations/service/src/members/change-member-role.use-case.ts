import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type ChangeRoleRpc, type MemberView, OrganizationsRpc } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { recordAudit } from '../audit/record-audit';
import { keepAnAdmin } from './keep-an-admin';
import { lockedMember } from './locked-member';
import { toMemberView } from './member.view';
import { MembersStore } from './members.store';
import { recordMembershipChanged } from './membership-events';

/** The admin API's role change of a member; the change, its audit event and the membership event commit together. */
@Injectable()
export class ChangeMemberRoleUseCase {
  constructor(private readonly outbox: Outbox) {}

  @RpcHandler(OrganizationsRpc.ChangeRole)
  execute(dto: ChangeRoleRpc, ctx: RequestContext): Promise<MemberView> {
    return this.outbox.transaction(async (m) => {
      const { org, member } = await lockedMember(m, dto);
      if (member.role === dto.role) return toMemberView(member);
      if (dto.role !== 'admin') await keepAnAdmin(m, org, member);
      await MembersStore.update(m, { organizationId: org.id, userId: member.userId }, { role: dto.role });
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
