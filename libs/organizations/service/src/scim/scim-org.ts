import { type EntityManager } from 'typeorm';
import { type OrganizationEntity } from '../organizations/organization.entity';
import { OrganizationNotFoundError } from '../organizations/organizations.errors';
import { OrganizationsStore } from '../organizations/organizations.store';

/** The organization of a SCIM call, locked when a change follows (membership checks run one at a time per organization). */
export async function scimOrganization(m: EntityManager, name: string, lock = false): Promise<OrganizationEntity> {
  const org = await OrganizationsStore.find(m, name, lock);
  if (!org) throw new OrganizationNotFoundError(name);
  return org;
}

export const ISO = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
