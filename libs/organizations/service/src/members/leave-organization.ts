import { type EntityManager } from 'typeorm';
import { MembersStore } from './members.store';

/**
 * Takes a user out of an organization for good, in the caller's transaction: the membership, its
 * resource groups' entries and its SCIM provisioning. Returns the role the user had (null: none).
 */
export async function leaveOrganization(
  m: EntityManager,
  organizationId: string,
  userId: string,
): Promise<string | null> {
  const role = await MembersStore.roleOf(m, organizationId, userId);
  await MembersStore.removeEverywhere(m, organizationId, userId);
  return role;
}
