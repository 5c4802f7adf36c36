// Standalone entry point: no NestJS import here, so the package works without Nest installed.
// The Nest module is the `@hub/webhook-receiver/nest` entry (src/nest/index.ts).
export * from './payload/webhook-payload.types';
export * from './payload/webhook-payload.validator';
export * from './payload/webhook-payload.guards';
export { WebhookReceiverError, WebhookRegistrationError, type ReceiverErrorCode } from './core/receiver.errors';
export type { HeaderBag, ReceiverLogger, WebhookHandlerContext, WebhookHandlerFn } from './core/receiver.types';
export {
  createWebhooksServer,
  WebhooksServer,
  type ListeningAddress,
  type WebhooksServerOptions,
} from './standalone/webhooks.server';
export {
  JOB_EXIT,
  runJobHandler,
  type RunJobHandlerOptions,
  type WebhookJobContext,
  type WebhookJobHandlerFn,
} from './job/run-job-handler';
