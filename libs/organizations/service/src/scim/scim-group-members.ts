import { type EntityManager } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { ScimInvalidValueError } from '@hub/organizations-contract';
import { type Outbox } from '@hub/messaging';
import { recordAudit } from '../audit/record-audit';
import { recordMembershipChanged } from '../members/membership-events';
import { ResourceGroupsStore } from '../resource-groups/resource-groups.store';
import { SCIM_MEMBER_ROLE } from './scim-membership';
import { ScimUsersStore } from './scim-users.store';

/**
 * Makes the resource group's users exactly the provisioned users `wanted` (SCIM user ids): adds
 * and removals are audited and published as membership changes. Returns the hub users touched.
 */
export async function setGroupMembers(
  outbox: Outbox,
  m: EntityManager,
  org: { id: string; name: string },
  groupId: string,
  wanted: string[],
  ctx: RequestContext,
): Promise<string[]> {
  const found = wanted.length === 0 ? [] : await ScimUsersStore.provisioned(m, org.id, wanted);
  const unknown = wanted.find((id) => !found.some((f) => f.id === id));
  if (unknown)
    throw new ScimInvalidValueError(`members: ${unknown.slice(0, 40)} is not a user provisioned in this organization`);
  const current = await ResourceGroupsStore.userNames(m, groupId);
  const added = found.filter((f) => !current.some((c) => c.user_id === f.user_id));
  const removed = current.filter((c) => !found.some((f) => f.user_id === c.user_id));
  for (const u of added) {
    const user = { id: u.user_id, name: u.hub_name, fullname: u.fullname || u.hub_name, role: SCIM_MEMBER_ROLE };
    await ResourceGroupsStore.insertUser(m, groupId, user, ctx.userName ?? null);
  }
  if (removed.length > 0) {
    await ResourceGroupsStore.removeUsers(
      m,
      groupId,
      removed.map((r) => r.user_id),
    );
  }
  if (added.length > 0) {
    await recordAudit(
      outbox,
      m,
      ctx,
      org,
      'resource_group.add_users',
      `${added.length} user(s) added to resource group ${groupId} by SCIM provisioning`,
      {
        resourceGroupId: groupId,
        users: added.map((u) => ({ user: u.hub_name, role: SCIM_MEMBER_ROLE })),
        scim: true,
      },
    );
  }
  if (removed.length > 0) {
    await recordAudit(
      outbox,
      m,
      ctx,
      org,
      'resource_group.remove_users',
      `${removed.length} user(s) removed from resource group ${groupId} by SCIM provisioning`,
      {
        resourceGroupId: groupId,
        users: removed.map((u) => ({ user: u.user_name })),
        scim: true,
      },
    );
  }
  const touched = [...added.map((u) => u.user_id), ...removed.map((u) => u.user_id)];
  if (touched.length > 0) await recordMembershipChanged(outbox, m, org.id, touched);
  return touched;
}
