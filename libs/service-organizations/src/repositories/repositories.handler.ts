import {
  ListRepositoriesRpc,
  type RepoUsagePage,
  type RepoUsageView,
  RepositoriesRpc,
  UpsertRepositoryRpc,
} from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { RepositoryCatalogue } from './repository-catalogue';

@RpcController()
export class RepositoriesHandler {
  constructor(private readonly catalogue: RepositoryCatalogue) {}

  @RpcHandler(RepositoriesRpc.Upsert)
  onUpsert(dto: UpsertRepositoryRpc): Promise<RepoUsageView> {
    return this.catalogue.upsert(dto);
  }

  @RpcHandler(RepositoriesRpc.List)
  onList(dto: ListRepositoriesRpc): Promise<RepoUsagePage> {
    return this.catalogue.list(dto.owner, dto.query);
  }
}
