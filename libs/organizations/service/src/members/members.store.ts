import { type EntityManager } from 'typeorm';
import { type MemberView } from '@hub/organizations-contract';
import { preparedQuery } from '@hub/persistence';
import { type OrganizationEntity } from '../organizations/organization.entity';
import { MemberEntity } from './member.entity';

/** One row of an organization's member list; no member: the organization alone (user_id null). */
export interface MemberListRow {
  user_id: string | null;
  user_name: string;
  role: MemberView['role'];
  added_at: string;
}

/** An organization a user is an active member of, with the role. */
export interface UserMembershipRow {
  id: string;
  name: string;
  fullname: string;
  plan: OrganizationEntity['plan'];
  created_at: Date;
  role: string;
}

type MemberKey = { organizationId: string; userId: string };

/** The only SQL on `organizations.members` (and a member's other rows when they leave). */
export const MembersStore = {
  get(m: EntityManager, key: MemberKey): Promise<MemberEntity | null> {
    return m.findOneBy(MemberEntity, key);
  },

  getOrFail(m: EntityManager, key: MemberKey): Promise<MemberEntity> {
    return m.findOneByOrFail(MemberEntity, key);
  },

  async insert(m: EntityManager, members: Omit<MemberEntity, 'createdAt' | 'suspended'>[]): Promise<void> {
    await m.insert(MemberEntity, members);
  },

  async insertOne(m: EntityManager, member: Omit<MemberEntity, 'createdAt'>): Promise<void> {
    await m.insert(MemberEntity, member);
  },

  async upsert(m: EntityManager, member: MemberKey & { userName: string; role: string }): Promise<void> {
    await m.upsert(MemberEntity, member, ['organizationId', 'userId']);
  },

  async update(m: EntityManager, key: MemberKey, change: { role?: string; suspended?: boolean }): Promise<void> {
    await m.update(MemberEntity, key, change);
  },

  /**
   * The organization (by its stored name) and its active members in one plain query, the one an
   * uncached read runs on every request (bench:gateway compares it with a bare handler): a named
   * prepared statement, planned once per connection; Postgres writes addedAt as the ISO string the
   * view carries. No row: no such organization.
   */
  list(m: EntityManager, organization: string): Promise<MemberListRow[]> {
    return preparedQuery<MemberListRow>(
      m.connection,
      'organizations-member-list',
      `SELECT m.user_id, m.user_name, m.role, to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS added_at
         FROM organizations.organizations o LEFT JOIN organizations.members m ON m.organization_id = o.id AND NOT m.suspended
        WHERE o.name = $1 ORDER BY m.user_name`,
      [organization],
    );
  },

  /** whoami asks this on every cache miss: one plain query, no entity hydration. */
  listForUser(m: EntityManager, userId: string): Promise<UserMembershipRow[]> {
    return m.query(
      `SELECT o.id, o.name, o.fullname, o.plan, o.created_at, m.role
           FROM organizations.members m JOIN organizations.organizations o ON o.id = m.organization_id
          WHERE m.user_id = $1 AND NOT m.suspended ORDER BY o.name`,
      [userId],
    );
  },

  async roleOf(m: EntityManager, organizationId: string, userId: string): Promise<string | null> {
    const [member] = (await m.query(
      `SELECT role FROM organizations.members WHERE organization_id = $1 AND user_id = $2`,
      [organizationId, userId],
    )) as { role: string }[];
    return member?.role ?? null;
  },

  /** Active admins of the organization other than `userId`. */
  async otherActiveAdmins(m: EntityManager, organizationId: string, userId: string): Promise<number> {
    const [row] = (await m.query(
      `SELECT count(*)::int AS n FROM organizations.members WHERE organization_id = $1 AND role = 'admin' AND NOT suspended AND user_id <> $2`,
      [organizationId, userId],
    )) as { n: number }[];
    return row?.n ?? 0;
  },

  /** Deletes the membership, the user's entries in the organization's resource groups and its SCIM provisioning. */
  async removeEverywhere(m: EntityManager, organizationId: string, userId: string): Promise<void> {
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
  },
};
