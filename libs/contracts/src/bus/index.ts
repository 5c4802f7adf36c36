export * from './prefix';
export * from './rpc';
export * from './events';
export * from './context';
export * from './descriptors';
export * from './repo-events';
export * from './audit-event';
export * from './paper-events';
