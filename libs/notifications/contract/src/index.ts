export * from './notifications.rpc';
export * from './notification-settings.dto';
export * from './watch.dto';
export * from './notifications.events';
export * from './notification-source.events';
