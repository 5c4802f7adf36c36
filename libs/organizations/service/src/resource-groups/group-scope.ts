import { type EntityManager } from 'typeorm';
import { type ResourceGroupRefRpc } from '@hub/organizations-contract';
import { type OrganizationEntity } from '../organizations/organization.entity';
import { OrganizationNotFoundError } from '../organizations/organizations.errors';
import { OrganizationsStore } from '../organizations/organizations.store';
import { ResourceGroupNotFoundError, ScimManagedGroupError } from './resource-groups.errors';
import { ResourceGroupsStore } from './resource-groups.store';

/** The organization by name, whatever its case. */
export async function groupOrganization(m: EntityManager, name: string): Promise<OrganizationEntity> {
  const org = await OrganizationsStore.find(m, name);
  if (!org) throw new OrganizationNotFoundError(name);
  return org;
}

/**
 * The organization and the group, which must belong to it (another organization's group is "not
 * found"), locked for the change. `users`: the change is to its users, which a group linked to a
 * SCIM group takes from the identity provider only (decision 0420).
 */
export async function lockedGroup(
  m: EntityManager,
  ref: ResourceGroupRefRpc,
  users?: 'users',
): Promise<OrganizationEntity> {
  const org = await groupOrganization(m, ref.organization);
  const found = await ResourceGroupsStore.lockInOrganization(m, ref.groupId, org.id);
  if (!found) throw new ResourceGroupNotFoundError(org.name, ref.groupId);
  if (users && found.scimLinked) throw new ScimManagedGroupError(ref.groupId);
  return org;
}
