export * from './webhooks.rpc';
export * from './webhook-log-filter.dto';
export * from './webhook-headers.dto';
export * from './webhook-recovery.dto';
export * from './webhook-delivery-options.dto';
export * from './webhook-deliveries.dto';
export * from './webhooks.events';
