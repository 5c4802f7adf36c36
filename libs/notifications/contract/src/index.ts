export * from './notifications.rpc';
export * from './notification-settings.dto';
export * from './watch.dto';
