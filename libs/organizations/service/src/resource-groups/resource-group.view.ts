import { avatarUrl } from '@hub/contracts';
import { type ResourceGroupView } from '@hub/organizations-contract';
import { type EntityManager } from 'typeorm';
import { ResourceGroupsStore } from './resource-groups.store';

/** Reads one resource group with its users and repositories as the API shows it; null if there is none. */
export async function readResourceGroup(
  m: EntityManager,
  id: string,
  publicUrl: string,
): Promise<ResourceGroupView | null> {
  const found = await ResourceGroupsStore.read(m, id);
  if (!found) return null;
  const { group: g, users, repos } = found;
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
