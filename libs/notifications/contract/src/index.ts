export * from './notification-filters.dto';
export * from './notification-bodies.dto';
export * from './notification-items.views';
export * from './notification-settings.dto';
export * from './watch.dto';
export * from './inbox-conditions';
export * from './notifications.rpc';
