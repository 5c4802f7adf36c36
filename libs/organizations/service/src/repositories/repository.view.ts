import { type RepoUsageView } from '@hub/organizations-contract';
import { type RepositoryRow } from './repositories.store';

export function toRepoUsageView(r: RepositoryRow): RepoUsageView {
  const storage = Number(r.storage);
  const total = Number(r.total);
  return {
    id: r.name,
    type: r.type,
    updatedAt: r.updated_at,
    visibility: r.visibility,
    storage,
    storagePercent: total > 0 ? (storage / total) * 100 : 0,
  };
}
