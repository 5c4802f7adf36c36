export * from './webhooks.module';
export * from './webhooks.config';
export * from './webhooks.di';
export * from './webhooks-core.module';
