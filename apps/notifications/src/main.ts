import 'reflect-metadata';
import { runService } from '@hub/observability';
import { NotificationsConfig, NotificationsModule, notificationsPersistence } from '@hub/notifications-service';

runService({
  name: 'notifications',
  config: NotificationsConfig,
  module: (config) => NotificationsModule.forRoot(config),
  persistence: notificationsPersistence,
}).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
