import { SetMetadata } from '@nestjs/common';

export const WEBHOOK_HANDLER_METADATA = 'hub:webhook-receiver:handler';

export interface WebhookHandlerMetadata {
  /** Route name; the method's name when omitted (spec 4.8 rule 1). */
  name?: string;
}

/**
 * Marks a provider method as the handler of `POST /webhooks/<name>`. The method receives
 * `(payload: WebhookPayload, context: WebhookHandlerContext)` and its return value is the
 * JSON response. The provider must be a singleton (the default scope).
 */
export const WebhookHandler = (name?: string): MethodDecorator =>
  SetMetadata<string, WebhookHandlerMetadata>(WEBHOOK_HANDLER_METADATA, { name });
