import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type ScimDeleted, type ScimResourceRpc, ScimRpc } from '@hub/organizations-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { recordAudit } from '../audit/record-audit';
import { keepAnAdmin } from '../members/keep-an-admin';
import { leaveOrganization } from '../members/leave-organization';
import { MembersStore } from '../members/members.store';
import { recordMembershipChanged } from '../members/membership-events';
import { checkIfMatch } from './scim-etag';
import { scimOrganization } from './scim-org';
import { ScimUsersStore } from './scim-users.store';

/**
 * Deprovisions a user: out of the organization, its groups and SCIM; the hub account stays, and is
 * given back if the identity provider provisions the same userName again.
 */
@Injectable()
export class DeleteScimUserUseCase {
  constructor(private readonly outbox: Outbox) {}

  @RpcHandler(ScimRpc.DeleteUser)
  execute(dto: ScimResourceRpc, ctx: RequestContext): Promise<ScimDeleted> {
    return this.outbox.transaction(async (m) => {
      const org = await scimOrganization(m, dto.organization, true);
      const user = await ScimUsersStore.get(m, org.id, dto.id, true);
      checkIfMatch(dto.ifMatch, user.version, 'User');
      const role = await MembersStore.roleOf(m, org.id, user.userId);
      if (role !== null) await keepAnAdmin(m, org, { userId: user.userId, role });
      await leaveOrganization(m, org.id, user.userId);
      await ScimUsersStore.rememberDeprovisioned(m, org.id, user.userName, user.userId);
      await recordMembershipChanged(this.outbox, m, org.id, [user.userId]);
      await recordAudit(this.outbox, m, ctx, org, 'org.remove_user', `${user.hubName} removed by SCIM provisioning`, {
        user: user.hubName,
        ...(role !== null ? { role } : {}),
        scim: true,
      });
      return { userIds: [user.userId] };
    });
  }
}
