import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { RepositoriesRpc, type RepoUsageView, type UpsertRepositoryRpc } from '@hub/organizations-contract';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { RepositoriesStore } from './repositories.store';
import { toRepoUsageView } from './repository.view';
import { RpcHandler } from '@hub/messaging';

/** `/admin/repos`: adds a repository to the catalogue or updates it (a missing storage keeps the one known). */
@Injectable()
export class UpsertRepositoryUseCase {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(RepositoriesRpc.Upsert)
  async execute(dto: UpsertRepositoryRpc): Promise<RepoUsageView> {
    return toRepoUsageView(await RepositoriesStore.upsert(this.ds.manager, dto));
  }
}
