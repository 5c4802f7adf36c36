export * from './webhooks.module';
export * from './webhooks.config';
export * from './webhooks.tokens';
export { isBlockedAddress, parseNetworks } from './delivery/ssrf-guard';
