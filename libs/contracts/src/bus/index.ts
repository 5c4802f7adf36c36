export * from './prefix';
export * from './events';
export * from './context';
export * from './descriptors';
export * from './audit-event';
