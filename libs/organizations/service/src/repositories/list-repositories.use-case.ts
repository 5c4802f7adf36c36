import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import {
  type ListRepositoriesRpc,
  REPO_USAGE_DEFAULT_PAGE,
  RepositoriesRpc,
  type RepoUsagePage,
} from '@hub/organizations-contract';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { RepositoriesStore } from './repositories.store';
import { toRepoUsageView } from './repository.view';
import { RpcHandler } from '@hub/messaging';

/**
 * One page of an owner's repositories with their storage. Offset paging: listings are small (an
 * owner's repositories) and the cursor stays an opaque string should that change.
 */
@Injectable()
export class ListRepositoriesUseCase {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(RepositoriesRpc.List)
  async execute(dto: ListRepositoriesRpc): Promise<RepoUsagePage> {
    const q = dto.query;
    const limit = q.limit ?? REPO_USAGE_DEFAULT_PAGE;
    const offset = Number(q.cursor ?? 0);
    const rows = await RepositoriesStore.list(this.ds.manager, dto.owner, q, limit + 1, offset);
    const more = rows.length > limit;
    return { items: rows.slice(0, limit).map(toRepoUsageView), ...(more ? { next: String(offset + limit) } : {}) };
  }
}
