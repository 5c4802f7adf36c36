export * from './webhook-body.dto';
export * from './webhooks.views';
export * from './webhooks-rpc.dto';
export * from './webhook-log-filter.dto';
export * from './webhook-headers.dto';
export * from './webhook-recovery.dto';
export * from './webhook-events';
export * from './webhooks-rpc';
