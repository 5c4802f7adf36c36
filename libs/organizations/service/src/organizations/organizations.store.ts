import { type EntityManager } from 'typeorm';
import { type OrgPlan } from '@hub/contracts';
import { OrganizationEntity } from './organization.entity';

/** An organization with the number of its members (suspended SCIM members left out). */
export interface OrganizationCountRow {
  id: string;
  name: string;
  fullname: string;
  plan: OrgPlan;
  created_at: Date | string;
  member_count: number;
}

/** Reads and writes of `organizations.organizations` that use cases share. */
export const OrganizationsStore = {
  async insert(m: EntityManager, org: Omit<OrganizationEntity, 'createdAt'>): Promise<void> {
    await m.insert(OrganizationEntity, org);
  },

  byId(m: EntityManager, id: string): Promise<OrganizationEntity> {
    return m.findOneByOrFail(OrganizationEntity, { id });
  },

  /** By the name as stored (the spelling the gateway resolved). */
  byName(m: EntityManager, name: string): Promise<OrganizationEntity | null> {
    return m.findOneBy(OrganizationEntity, { name });
  },

  /**
   * By name, whatever its case; `lock` holds the row for the caller's transaction, which
   * serializes the membership checks of one organization (keep an admin, SCIM).
   */
  find(m: EntityManager, name: string, lock = false): Promise<OrganizationEntity | null> {
    let q = m.createQueryBuilder(OrganizationEntity, 'o').where('lower(o.name) = lower(:name)', { name });
    if (lock) q = q.setLock('pessimistic_write');
    return q.getOne();
  },

  /**
   * Up to `limit` organizations by name after `after`, those whose name or full name holds `search`
   * (any case), each with its member count: one index probe per row on the members' primary key.
   */
  list(m: EntityManager, q: { after?: string; search?: string; limit: number }): Promise<OrganizationCountRow[]> {
    return m.query(
      `SELECT o.id, o.name, o.fullname, o.plan, o.created_at,
              (SELECT count(*)::int FROM organizations.members x WHERE x.organization_id = o.id AND NOT x.suspended) AS member_count
         FROM organizations.organizations o
        WHERE ($1::text IS NULL OR o.name > $1)
          AND ($2::text IS NULL OR strpos(lower(o.name), lower($2)) > 0 OR strpos(lower(o.fullname), lower($2)) > 0)
        ORDER BY o.name
        LIMIT $3`,
      [q.after ?? null, q.search ?? null, q.limit],
    );
  },

  /** Organizations whose name is not yet in credentials' registry, by id after `after`. */
  unregistered(m: EntityManager, after: string, limit: number): Promise<{ id: string; name: string }[]> {
    return m.query(
      `SELECT id, name FROM organizations.organizations WHERE NOT name_registered AND id > $1 ORDER BY id LIMIT ${limit}`,
      [after],
    );
  },

  async markRegistered(m: EntityManager, id: string): Promise<void> {
    await m.query(`UPDATE organizations.organizations SET name_registered = true WHERE id = $1`, [id]);
  },
};
