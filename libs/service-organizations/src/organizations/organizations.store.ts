import { type EntityManager } from 'typeorm';
import { OrganizationEntity } from './organization.entity';

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
