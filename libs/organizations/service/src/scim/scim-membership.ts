import { type EntityManager } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type Outbox } from '@hub/messaging';
import { recordAudit } from '../audit/record-audit';
import { keepAnAdmin } from '../members/keep-an-admin';
import { MembersStore } from '../members/members.store';
import { recordMembershipChanged } from '../members/membership-events';

/** The role of a member the identity provider brought in (decision 0420): the least, raised by an org admin if needed. */
export const SCIM_MEMBER_ROLE = 'read';

/**
 * Makes the provisioned user a member (a new one gets SCIM_MEMBER_ROLE) and its membership
 * active or suspended as the identity provider says; each change publishes the membership event
 * (gateways drop their cached memberships) and its audit event, in the caller's transaction.
 */
export async function provisionMembership(
  outbox: Outbox,
  m: EntityManager,
  org: { id: string; name: string },
  user: { id: string; name: string },
  active: boolean,
  ctx: RequestContext,
): Promise<void> {
  const member = await MembersStore.get(m, { organizationId: org.id, userId: user.id });
  if (!member) {
    await MembersStore.insertOne(m, {
      organizationId: org.id,
      userId: user.id,
      userName: user.name,
      role: SCIM_MEMBER_ROLE,
      suspended: !active,
    });
    await recordMembershipChanged(outbox, m, org.id, [user.id]);
    await recordAudit(
      outbox,
      m,
      ctx,
      org,
      'org.add_user',
      `${user.name} added as ${SCIM_MEMBER_ROLE} by SCIM provisioning${active ? '' : ' (suspended)'}`,
      {
        user: user.name,
        role: SCIM_MEMBER_ROLE,
        scim: true,
        ...(active ? {} : { suspended: true }),
      },
    );
    return;
  }
  if (member.suspended === !active) return;
  if (!active) await keepAnAdmin(m, org, member);
  await MembersStore.update(m, { organizationId: org.id, userId: user.id }, { suspended: !active });
  await recordMembershipChanged(outbox, m, org.id, [user.id]);
  if (active) {
    await recordAudit(outbox, m, ctx, org, 'org.add_user', `${member.userName} restored by SCIM provisioning`, {
      user: member.userName,
      role: member.role,
      scim: true,
      restored: true,
    });
  } else {
    await recordAudit(outbox, m, ctx, org, 'org.remove_user', `${member.userName} suspended by SCIM provisioning`, {
      user: member.userName,
      role: member.role,
      scim: true,
      suspended: true,
    });
  }
}
