import { type DynamicModule, Module } from '@nestjs/common';
import { ClaimPaperUseCase } from './claim-paper.use-case';
import { PaperEventsConsumer } from './paper-events.consumer';
import { UpsertPaperUseCase } from './upsert-paper.use-case';

/** Papers with author entries (from the admin API and `hub.events.paper.create`) and their claims. */
@Module({})
export class PapersModule {
  /** `core`: the service's shared `OrganizationsCoreModule` (DataSource, outbox, config). */
  static register(core: DynamicModule): DynamicModule {
    return {
      module: PapersModule,
      imports: [core],
      providers: [UpsertPaperUseCase, ClaimPaperUseCase, PaperEventsConsumer],
    };
  }
}
