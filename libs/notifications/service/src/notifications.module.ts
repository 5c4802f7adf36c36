import { type DynamicModule, Module } from '@nestjs/common';
import { OutboxModule } from '@hub/messaging';
import { persistenceOptions, ServicePersistenceModule, type ServicePersistenceOptions } from '@hub/persistence';
import { NOTIFICATIONS_MIGRATIONS } from './migrations';
import { type NotificationsConfig } from './notifications.config';
import { NOTIFICATIONS_CONFIG, NOTIFICATIONS_DS, NOTIFICATIONS_SCHEMA } from './notifications.di';
import { DeleteNotificationsUseCase } from './inbox/delete-notifications.use-case';
import { ListNotificationsUseCase } from './inbox/list-notifications.use-case';
import { MarkNotificationsUseCase } from './inbox/mark-notifications.use-case';
import { ApplyThreadEventUseCase } from './ingest/apply-thread-event.use-case';
import { PrivateRepoReaders } from './ingest/private-repo-readers';
import { HubEventsConsumer } from './ingest/hub-events.consumer';
import { ThreadEventBatcher } from './ingest/thread-event-batcher';
import { MailEventsConsumer } from './mail/mail-events.consumer';
import { NotificationsRetention } from './inbox/notifications-retention';
import { NotificationsMailer } from './mail/notifications-mailer';
import { GetNotificationSettingsUseCase } from './settings/get-notification-settings.use-case';
import { UpdateNotificationSettingsUseCase } from './settings/update-notification-settings.use-case';
import { GetWatchListUseCase } from './watch/get-watch-list.use-case';
import { UpdateWatchListUseCase } from './watch/update-watch-list.use-case';

export function notificationsPersistence(config: NotificationsConfig): ServicePersistenceOptions {
  return persistenceOptions(
    { name: NOTIFICATIONS_DS, schema: NOTIFICATIONS_SCHEMA, entities: [], migrations: NOTIFICATIONS_MIGRATIONS },
    config,
  );
}

/**
 * A user's inbox, notification settings and watch lists, fed by the hub events. Each use case serves
 * its RPC itself (`@RpcHandler` on `execute`, decision 0002): no handler file.
 */
@Module({})
export class NotificationsModule {
  static forRoot(config: NotificationsConfig): DynamicModule {
    return {
      module: NotificationsModule,
      imports: [
        ServicePersistenceModule.forService(notificationsPersistence(config)),
        OutboxModule.forService({ dataSource: NOTIFICATIONS_DS, schema: NOTIFICATIONS_SCHEMA }),
      ],
      providers: [
        { provide: NOTIFICATIONS_CONFIG, useValue: config },
        ListNotificationsUseCase,
        MarkNotificationsUseCase,
        DeleteNotificationsUseCase,
        GetNotificationSettingsUseCase,
        UpdateNotificationSettingsUseCase,
        GetWatchListUseCase,
        UpdateWatchListUseCase,
        ApplyThreadEventUseCase,
        PrivateRepoReaders,
        ThreadEventBatcher,
        HubEventsConsumer,
        NotificationsMailer,
        MailEventsConsumer,
        NotificationsRetention,
      ],
    };
  }
}
