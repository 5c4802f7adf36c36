import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type MemberRefRpc, OrganizationsRpc } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { recordAudit } from '../audit/record-audit';
import { keepAnAdmin } from './keep-an-admin';
import { leaveOrganization } from './leave-organization';
import { lockedMember } from './locked-member';
import { recordMembershipChanged } from './membership-events';

/** The admin API's removal of a member; the change, its audit event and the membership event commit together. */
@Injectable()
export class RemoveMemberUseCase {
  constructor(private readonly outbox: Outbox) {}

  @RpcHandler(OrganizationsRpc.RemoveMember)
  execute(dto: MemberRefRpc, ctx: RequestContext): Promise<{ removed: true }> {
    return this.outbox.transaction(async (m) => {
      const { org, member } = await lockedMember(m, dto);
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
}
