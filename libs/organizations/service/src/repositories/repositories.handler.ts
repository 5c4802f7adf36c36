import {
  ListRepositoriesRpc,
  type RepoUsagePage,
  type RepoUsageView,
  RepositoriesRpc,
  UpsertRepositoryRpc,
} from '@hub/organizations-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { ListRepositoriesUseCase } from './list-repositories.use-case';
import { UpsertRepositoryUseCase } from './upsert-repository.use-case';

@RpcController()
export class RepositoriesHandler {
  constructor(
    private readonly upsertRepository: UpsertRepositoryUseCase,
    private readonly listRepositories: ListRepositoriesUseCase,
  ) {}

  @RpcHandler(RepositoriesRpc.Upsert)
  onUpsert(dto: UpsertRepositoryRpc): Promise<RepoUsageView> {
    return this.upsertRepository.execute(dto);
  }

  @RpcHandler(RepositoriesRpc.List)
  onList(dto: ListRepositoriesRpc): Promise<RepoUsagePage> {
    return this.listRepositories.execute(dto);
  }
}
