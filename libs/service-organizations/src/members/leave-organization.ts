import { type EntityManager } from 'typeorm';

/**
 * Takes a user out of an organization for good, in the caller's transaction: the membership, its
 * resource groups' entries and its SCIM provisioning. Returns the role the user had (null: none).
 */
export async function leaveOrganization(
  m: EntityManager,
  organizationId: string,
  userId: string,
): Promise<string | null> {
  const [member] = (await m.query(
    `SELECT role FROM organizations.members WHERE organization_id = $1 AND user_id = $2`,
    [organizationId, userId],
  )) as { role: string }[];
  await m.query(`DELETE FROM organizations.members WHERE organization_id = $1 AND user_id = $2`, [
    organizationId,
    userId,
  ]);
  await m.query(
    `DELETE FROM organizations.resource_group_users WHERE user_id = $2
       AND group_id IN (SELECT id FROM organizations.resource_groups WHERE organization_id = $1)`,
    [organizationId, userId],
  );
  await m.query(`DELETE FROM organizations.scim_users WHERE organization_id = $1 AND user_id = $2`, [
    organizationId,
    userId,
  ]);
  return member?.role ?? null;
}
