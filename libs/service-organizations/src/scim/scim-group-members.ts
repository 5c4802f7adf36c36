import { type EntityManager } from 'typeorm';
import { type RequestContext, ScimInvalidValueError } from '@hub/contracts';
import { type Outbox } from '@hub/messaging';
import { recordAudit } from '../audit/record-audit';
import { recordMembershipChanged } from '../members/membership-events';
import { SCIM_MEMBER_ROLE } from './scim-membership';

interface Provisioned {
  id: string;
  user_id: string;
  hub_name: string;
  fullname: string;
}

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
  const found =
    wanted.length === 0
      ? []
      : ((await m.query(
          `SELECT id, user_id, hub_name, trim(concat_ws(' ', given_name, family_name)) AS fullname FROM organizations.scim_users
      WHERE organization_id = $1 AND id = ANY($2)`,
          [org.id, wanted],
        )) as Provisioned[]);
  const unknown = wanted.find((id) => !found.some((f) => f.id === id));
  if (unknown)
    throw new ScimInvalidValueError(`members: ${unknown.slice(0, 40)} is not a user provisioned in this organization`);
  const current = (await m.query(
    `SELECT user_id, user_name FROM organizations.resource_group_users WHERE group_id = $1`,
    [groupId],
  )) as { user_id: string; user_name: string }[];
  const added = found.filter((f) => !current.some((c) => c.user_id === f.user_id));
  const removed = current.filter((c) => !found.some((f) => f.user_id === c.user_id));
  for (const u of added) {
    await m.query(
      `INSERT INTO organizations.resource_group_users (group_id, user_id, user_name, fullname, role, added_by) VALUES ($1, $2, $3, $4, $5, $6)`,
      [groupId, u.user_id, u.hub_name, u.fullname || u.hub_name, SCIM_MEMBER_ROLE, ctx.userName ?? null],
    );
  }
  if (removed.length > 0) {
    await m.query(`DELETE FROM organizations.resource_group_users WHERE group_id = $1 AND user_id = ANY($2)`, [
      groupId,
      removed.map((r) => r.user_id),
    ]);
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
