import { Module, type OnModuleInit } from '@nestjs/common';
import { NotificationsEvents } from '@hub/notifications-contract';
import { EventBus } from '@hub/messaging';
import { GATEWAY_CONFIG, type GatewayConfig } from '@hub/service-gateway';
import { InboxPollCache } from './inbox-poll-cache';
import { NotificationSettingsController } from './notification-settings.controller';
import { NotificationsController } from './notifications.controller';

/** Users whose poll answers one gateway keeps. */
const POLL_CACHE_USERS = 50_000;

/** `/api/notifications` (the inbox) and `/api/settings/notifications|watch`. */
@Module({
  controllers: [NotificationsController, NotificationSettingsController],
  providers: [
    {
      provide: InboxPollCache,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayConfig) => new InboxPollCache(config.HUB_INBOX_POLL_CACHE_TTL_MS, POLL_CACHE_USERS),
    },
  ],
})
export class NotificationsApiModule implements OnModuleInit {
  constructor(
    private readonly events: EventBus,
    private readonly polls: InboxPollCache,
  ) {}

  onModuleInit(): void {
    // Every replica hears every change: a plain subscription, not a shared consumer.
    this.events.listen(NotificationsEvents.InboxChanged, (e) => this.polls.forget(e.userIds));
  }
}
