import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Streams } from '@hub/contracts';
import { PaperEvents } from '@hub/organizations-contract';
import { EventBus, type Unsubscribe } from '@hub/messaging';
import { UpsertPaperUseCase } from './upsert-paper.use-case';

/** Papers published on `hub.events.paper.*` (durable; the same paper twice leaves the same rows). */
@Injectable()
export class PaperEventsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private stop?: Unsubscribe;

  constructor(
    private readonly events: EventBus,
    private readonly upsertPaper: UpsertPaperUseCase,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stop = await this.events.consume({
      stream: Streams.Events.name,
      durable: 'organizations-papers',
      source: PaperEvents.Create,
      handler: async (e) => {
        await this.upsertPaper.execute(e.paper);
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop?.();
  }
}
