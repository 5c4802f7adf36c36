import { type EntityManager } from 'typeorm';
import { type ResourceGroupView } from '@hub/organizations-contract';

export interface ResourceGroupRow {
  id: string;
  name: string;
  description: string | null;
  auto_join: string;
}

export interface ResourceGroupUserRow {
  user_id: string;
  user_name: string;
  fullname: string;
  role: string;
  added_by: string | null;
}

export interface ResourceGroupRepoRow {
  type: ResourceGroupView['resources'][number]['type'];
  name: string;
  added_by: string | null;
  private: boolean;
}

export interface NewGroupUser {
  id: string;
  name: string;
  fullname: string;
  role: string;
}

/** The only SQL on `organizations.resource_groups` and its users and repositories. */
export const ResourceGroupsStore = {
  async insert(
    m: EntityManager,
    g: { id: string; organizationId: string; name: string; description: string | null; autoJoin: object },
  ): Promise<void> {
    await m.query(
      `INSERT INTO organizations.resource_groups (id, organization_id, name, description, auto_join) VALUES ($1, $2, $3, $4, $5)`,
      [g.id, g.organizationId, g.name, g.description, JSON.stringify(g.autoJoin)],
    );
  },

  /** The group of this organization, locked for the caller's transaction; undefined if it is not one of its groups. */
  async lockInOrganization(
    m: EntityManager,
    groupId: string,
    organizationId: string,
  ): Promise<{ scimLinked: boolean } | undefined> {
    const [found] = (await m.query(
      `SELECT scim_linked FROM organizations.resource_groups WHERE id = $1 AND organization_id = $2 FOR UPDATE`,
      [groupId, organizationId],
    )) as { scim_linked: boolean }[];
    return found ? { scimLinked: found.scim_linked } : undefined;
  },

  async existsInOrganization(m: EntityManager, groupId: string, organizationId: string): Promise<boolean> {
    const rows = (await m.query(`SELECT 1 FROM organizations.resource_groups WHERE id = $1 AND organization_id = $2`, [
      groupId,
      organizationId,
    ])) as unknown[];
    return rows.length > 0;
  },

  /** Sets the name when given, and the description when `description` is given (null clears it). */
  async update(
    m: EntityManager,
    groupId: string,
    change: { name?: string; description?: string | null },
  ): Promise<void> {
    await m.query(
      `UPDATE organizations.resource_groups SET name = COALESCE($2, name), description = CASE WHEN $3::boolean THEN $4 ELSE description END WHERE id = $1`,
      [groupId, change.name ?? null, change.description !== undefined, change.description ?? null],
    );
  },

  /** Adds the user, or changes the role of one already in the group. */
  async upsertUser(m: EntityManager, groupId: string, u: NewGroupUser, addedBy: string | null): Promise<void> {
    await m.query(
      `INSERT INTO organizations.resource_group_users (group_id, user_id, user_name, fullname, role, added_by) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (group_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
      [groupId, u.id, u.name, u.fullname, u.role, addedBy],
    );
  },

  async insertUser(m: EntityManager, groupId: string, u: NewGroupUser, addedBy: string | null): Promise<void> {
    await m.query(
      `INSERT INTO organizations.resource_group_users (group_id, user_id, user_name, fullname, role, added_by) VALUES ($1, $2, $3, $4, $5, $6)`,
      [groupId, u.id, u.name, u.fullname, u.role, addedBy],
    );
  },

  async user(
    m: EntityManager,
    groupId: string,
    userId: string,
  ): Promise<{ userName: string; role: string } | undefined> {
    const [user] = (await m.query(
      `SELECT user_name, role FROM organizations.resource_group_users WHERE group_id = $1 AND user_id = $2`,
      [groupId, userId],
    )) as { user_name: string; role: string }[];
    return user ? { userName: user.user_name, role: user.role } : undefined;
  },

  /** The group's users (id and hub name). */
  userNames(m: EntityManager, groupId: string): Promise<{ user_id: string; user_name: string }[]> {
    return m.query(`SELECT user_id, user_name FROM organizations.resource_group_users WHERE group_id = $1`, [groupId]);
  },

  async removeUsers(m: EntityManager, groupId: string, userIds: string[]): Promise<void> {
    await m.query(`DELETE FROM organizations.resource_group_users WHERE group_id = $1 AND user_id = ANY($2)`, [
      groupId,
      userIds,
    ]);
  },

  async addRepo(
    m: EntityManager,
    groupId: string,
    r: { type: string; name: string },
    addedBy: string | null,
  ): Promise<void> {
    await m.query(
      `INSERT INTO organizations.resource_group_repos (group_id, type, name, added_by) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [groupId, r.type, r.name, addedBy],
    );
  },

  /** One group with its users and repositories (a repository's privacy from the catalogue); undefined if none. */
  async read(
    m: EntityManager,
    id: string,
  ): Promise<{ group: ResourceGroupRow; users: ResourceGroupUserRow[]; repos: ResourceGroupRepoRow[] } | undefined> {
    const [group] = (await m.query(
      `SELECT id, name, description, auto_join FROM organizations.resource_groups WHERE id = $1`,
      [id],
    )) as ResourceGroupRow[];
    if (!group) return undefined;
    const users = (await m.query(
      `SELECT user_id, user_name, fullname, role, added_by FROM organizations.resource_group_users WHERE group_id = $1 ORDER BY added_at, user_name`,
      [id],
    )) as ResourceGroupUserRow[];
    const repos = (await m.query(
      `SELECT g.type, g.name, g.added_by, COALESCE(r.visibility <> 'public', false) AS private
       FROM organizations.resource_group_repos g LEFT JOIN organizations.repositories r ON r.type = g.type AND r.name = g.name
       WHERE g.group_id = $1 ORDER BY g.added_at, g.name`,
      [id],
    )) as ResourceGroupRepoRow[];
    return { group, users, repos };
  },
};
