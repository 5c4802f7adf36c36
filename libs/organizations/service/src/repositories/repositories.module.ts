import { type DynamicModule, Module } from '@nestjs/common';
import { ListRepositoriesUseCase } from './list-repositories.use-case';
import { RepoEventIdsPruner } from './repo-event-ids.pruner';
import { RepoEventsConsumer } from './repo-events.consumer';
import { UpsertRepositoryUseCase } from './upsert-repository.use-case';

/** The repository catalogue (storage usage): fed by `hub.events.repo.>` and the admin API, listed a page at a time. */
@Module({})
export class RepositoriesModule {
  /** `core`: the service's shared `OrganizationsCoreModule` (DataSource, outbox, config). */
  static register(core: DynamicModule): DynamicModule {
    return {
      module: RepositoriesModule,
      imports: [core],
      providers: [UpsertRepositoryUseCase, ListRepositoriesUseCase, RepoEventsConsumer, RepoEventIdsPruner],
    };
  }
}
