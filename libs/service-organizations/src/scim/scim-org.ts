import { type EntityManager } from 'typeorm';
import { OrganizationEntity } from '../organizations/organization.entity';
import { OrganizationNotFoundError } from '../organizations/organizations.errors';

/** The organization of a SCIM call, locked when a change follows (membership checks run one at a time per organization). */
export async function scimOrganization(m: EntityManager, name: string, lock = false): Promise<OrganizationEntity> {
  let q = m.createQueryBuilder(OrganizationEntity, 'o').where('lower(o.name) = lower(:name)', { name });
  if (lock) q = q.setLock('pessimistic_write');
  const org = await q.getOne();
  if (!org) throw new OrganizationNotFoundError(name);
  return org;
}

/** Postgres' unique violation (23505). */
export function isUniqueViolation(e: unknown): boolean {
  return (e as { driverError?: { code?: string } })?.driverError?.code === '23505';
}

export const ISO = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
