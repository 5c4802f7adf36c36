import type { WebhookPayload } from '../payload/webhook-payload.types';

/** Request headers as Node, Fastify and Express hand them over (names lower-cased). */
export type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

export interface WebhookHandlerContext {
  /** Route name the delivery came in on (`/webhooks/<name>`). */
  name: string;
  /** Standard Webhooks `webhook-id`, present when the delivery was signed and verified. */
  webhookId?: string;
  headers: HeaderBag;
}

/** The returned value (or `{}` when undefined) is sent back as JSON with status 200. */
export type WebhookHandlerFn = (payload: WebhookPayload, context: WebhookHandlerContext) => unknown;

export interface ReceiverLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** What a front end writes back: status, extra headers, and a JSON text body. */
export interface ReceiverResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: string;
}

export function headerValue(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export const consoleLogger: ReceiverLogger = {
  log: (message) => console.log(message),
  warn: (message) => console.warn(message),
  error: (message, error) => (error === undefined ? console.error(message) : console.error(message, error)),
};
