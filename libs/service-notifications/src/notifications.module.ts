import { type DynamicModule, Module } from '@nestjs/common';
import { OutboxModule } from '@hub/messaging';
import { persistenceOptions, ServicePersistenceModule, type ServicePersistenceOptions } from '@hub/persistence';
import { NOTIFICATIONS_MIGRATIONS } from './migrations';
import { type NotificationsConfig } from './notifications.config';
import { NOTIFICATIONS_CONFIG, NOTIFICATIONS_DS, NOTIFICATIONS_SCHEMA } from './notifications.tokens';
import { InboxUseCases } from './inbox/inbox.use-cases';
import { NotificationsHandler } from './inbox/notifications.handler';
import { ApplyThreadEventUseCase } from './ingest/apply-thread-event.use-case';
import { HubEventsConsumer } from './ingest/hub-events.consumer';
import { ThreadEventBatcher } from './ingest/thread-event-batcher';
import { MailEventsConsumer } from './mail/mail-events.consumer';
import { NotificationsMailer } from './mail/notifications-mailer';
import { SettingsUseCases } from './settings/settings.use-cases';
import { WatchUseCases } from './watch/watch.use-cases';

export function notificationsPersistence(config: NotificationsConfig): ServicePersistenceOptions {
  return persistenceOptions(
    { name: NOTIFICATIONS_DS, schema: NOTIFICATIONS_SCHEMA, entities: [], migrations: NOTIFICATIONS_MIGRATIONS },
    config,
  );
}

/** A user's inbox, notification settings and watch lists, fed by the hub events. */
@Module({})
export class NotificationsModule {
  static forRoot(config: NotificationsConfig): DynamicModule {
    return {
      module: NotificationsModule,
      imports: [
        ServicePersistenceModule.forService(notificationsPersistence(config)),
        OutboxModule.forService({ dataSource: NOTIFICATIONS_DS, schema: NOTIFICATIONS_SCHEMA }),
      ],
      controllers: [NotificationsHandler],
      providers: [
        { provide: NOTIFICATIONS_CONFIG, useValue: config },
        InboxUseCases,
        SettingsUseCases,
        WatchUseCases,
        ApplyThreadEventUseCase,
        ThreadEventBatcher,
        HubEventsConsumer,
        NotificationsMailer,
        MailEventsConsumer,
      ],
    };
  }
}
