import { avatarUrl, type ResourceGroupView } from '@hub/contracts';
import { type EntityManager } from 'typeorm';

/** Reads one resource group with its users and repositories (a repository's privacy from the catalogue). */
export async function readResourceGroup(
  m: EntityManager,
  id: string,
  publicUrl: string,
): Promise<ResourceGroupView | null> {
  const [g] = (await m.query(
    `SELECT id, name, description, auto_join FROM organizations.resource_groups WHERE id = $1`,
    [id],
  )) as {
    id: string;
    name: string;
    description: string | null;
    auto_join: string;
  }[];
  if (!g) return null;
  const users = (await m.query(
    `SELECT user_id, user_name, fullname, role, added_by FROM organizations.resource_group_users WHERE group_id = $1 ORDER BY added_at, user_name`,
    [id],
  )) as { user_id: string; user_name: string; fullname: string; role: string; added_by: string | null }[];
  const repos = (await m.query(
    `SELECT g.type, g.name, g.added_by, COALESCE(r.visibility <> 'public', false) AS private
     FROM organizations.resource_group_repos g LEFT JOIN organizations.repositories r ON r.type = g.type AND r.name = g.name
     WHERE g.group_id = $1 ORDER BY g.added_at, g.name`,
    [id],
  )) as {
    type: ResourceGroupView['resources'][number]['type'];
    name: string;
    added_by: string | null;
    private: boolean;
  }[];
  const entries = repos.map((r) => ({
    type: r.type,
    name: r.name,
    private: r.private,
    ...(r.added_by ? { addedBy: r.added_by } : {}),
  }));
  // Collections would join `resources` only; `repos` holds the repositories.
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    autoJoin: JSON.parse(g.auto_join) as ResourceGroupView['autoJoin'],
    users: users.map((u) => ({
      type: 'user',
      _id: u.user_id,
      fullname: u.fullname,
      name: u.user_name,
      avatarUrl: avatarUrl(publicUrl, u.user_name),
      role: u.role,
      ...(u.added_by ? { addedBy: u.added_by } : {}),
    })),
    resources: entries,
    repos: entries,
  };
}
