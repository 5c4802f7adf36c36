import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type RepoEventPayload, RepoEvents, Streams } from '@hub/contracts';
import { EventBus, type Unsubscribe } from '@hub/messaging';
import { RepositoryCatalogue } from './repository-catalogue';

/**
 * Keeps the catalogue in step with `hub.events.repo.*` (durable: an event published while this
 * service is down is applied when it comes back). Applying an event twice leaves the same row.
 */
@Injectable()
export class RepoEventsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private stop?: Unsubscribe;

  constructor(
    private readonly events: EventBus,
    private readonly catalogue: RepositoryCatalogue,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stop = await this.events.consume({
      stream: Streams.Events.name, durable: 'organizations-repo-catalogue', source: RepoEvents,
      handler: (e) => this.apply(e),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop?.();
  }

  async apply(e: RepoEventPayload): Promise<void> {
    const { repo } = e;
    if (e.event.action === 'delete') return this.catalogue.remove(repo.type, repo.name);
    if (e.event.action === 'move' && e.movedTo) return this.catalogue.move(repo.type, repo.name, e.movedTo.name);
    // create, update and anything else that names a repository: it exists with this visibility.
    await this.catalogue.upsert({
      type: repo.type, name: repo.name, visibility: repo.private === undefined ? undefined : repo.private ? 'private' : 'public', storage: repo.storage,
    });
  }
}
