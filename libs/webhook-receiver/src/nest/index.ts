// `@hub/webhook-receiver/nest`: kept out of the root entry so the standalone server and the
// job runner work without NestJS installed (the Nest packages are optional peers).
export { WebhooksModule } from './webhooks.module';
export { WebhookHandler, WEBHOOK_HANDLER_METADATA, type WebhookHandlerMetadata } from './webhook-handler.decorator';
export type { WebhooksModuleOptions } from './webhooks-module.options';
