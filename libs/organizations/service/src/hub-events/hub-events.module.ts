import { type DynamicModule, Module } from '@nestjs/common';
import { PublishHubEventUseCase } from './publish-hub-event.use-case';

/** The admin API's "publish a hub event": published here, so the gateway holds no right to publish events (decision 0013). */
@Module({})
export class HubEventsModule {
  /** `core`: the service's shared `OrganizationsCoreModule` (DataSource, outbox, config). */
  static register(core: DynamicModule): DynamicModule {
    return {
      module: HubEventsModule,
      imports: [core],
      providers: [PublishHubEventUseCase],
    };
  }
}
