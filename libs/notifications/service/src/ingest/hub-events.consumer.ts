import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type EventSource, Streams } from '@hub/contracts';
import { NotificationSourceEvents } from '@hub/notifications-contract';
import { EventBus, type EventMeta, type Unsubscribe } from '@hub/messaging';
import { MAX_EVENTS_PER_COMMIT, ThreadEventBatcher } from './thread-event-batcher';
import { fromBlog, fromDiscussion, fromPaper, fromPost, type ThreadEvent } from './thread-event';

/**
 * Durable consumers of the hub events that make notifications (discussion, paper, post, blog):
 * replicas share each durable; a failing event comes back, an invalid one is dead-lettered.
 */
@Injectable()
export class HubEventsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('HubEventsConsumer');
  private stops: Unsubscribe[] = [];

  constructor(
    private readonly bus: EventBus,
    private readonly batcher: ThreadEventBatcher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const S = NotificationSourceEvents;
    this.stops = await Promise.all([
      this.consume('notifications-discussion', S.Discussion, fromDiscussion),
      this.consume('notifications-paper', S.Paper, fromPaper),
      this.consume('notifications-post', S.Post, fromPost),
      this.consume('notifications-blog', S.Blog, fromBlog),
    ]);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.stops.map((s) => s()));
    this.stops = [];
  }

  private consume<T>(
    durable: string,
    source: EventSource<T>,
    toThread: (p: T, meta: EventMeta) => ThreadEvent,
  ): Promise<Unsubscribe> {
    return this.bus.consume({
      // Several in flight: the batcher commits those that arrive together in one transaction.
      stream: Streams.Events.name,
      durable,
      source,
      concurrency: MAX_EVENTS_PER_COMMIT,
      handler: async (payload, meta) => {
        const notified = await this.batcher.submit(toThread(payload, meta));
        this.logger.debug({ subject: meta.subject, msgId: meta.msgId, notified }, 'hub event applied');
      },
    });
  }
}
