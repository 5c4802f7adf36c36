import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { WebhookPayload } from '../payload/webhook-payload.types';
import { repoPayload } from './payload.fixtures';

export interface Delivery {
  headers: Record<string, string>;
  body: string;
}

export interface DeliveryOptions {
  /** Sent verbatim in X-Webhook-Secret and used to sign; omit for an unsigned delivery. */
  secret?: string;
  /** Sign with this secret instead (to forge a bad signature). */
  signingSecret?: string;
  msgId?: string;
  date?: Date;
  sign?: boolean;
}

/**
 * A delivery built the way the architecture page says the hub sends it: JSON payload v3,
 * `X-Webhook-Secret`, and Standard Webhooks headers signed by the `standardwebhooks` package
 * itself (`new Webhook(secret, {format: 'raw'})`), so the receiver is checked against the
 * reference implementation rather than against its own code.
 */
export function hubDelivery(payload: WebhookPayload = repoPayload(), options: DeliveryOptions = {}): Delivery {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': 'hub-webhooks/test' };
  if (options.secret !== undefined) headers['X-Webhook-Secret'] = options.secret;
  const signingSecret = options.signingSecret ?? options.secret;
  if (signingSecret !== undefined && options.sign !== false) {
    const msgId = options.msgId ?? `msg_${randomUUID()}`;
    const date = options.date ?? new Date();
    headers['webhook-id'] = msgId;
    headers['webhook-timestamp'] = String(Math.floor(date.getTime() / 1000));
    headers['webhook-signature'] = new Webhook(signingSecret, { format: 'raw' }).sign(msgId, date, body);
  }
  return { headers, body };
}

export function post(url: string, delivery: Delivery): Promise<Response> {
  return fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.body });
}

/** Collects what the receiver logs, so tests can assert on it and the output stays readable. */
export function memoryLogger() {
  const lines: { level: 'log' | 'warn' | 'error'; message: string; error?: unknown }[] = [];
  return {
    lines,
    log: (message: string) => void lines.push({ level: 'log', message }),
    warn: (message: string) => void lines.push({ level: 'warn', message }),
    error: (message: string, error?: unknown) => void lines.push({ level: 'error', message, error }),
  };
}

/** The `error` member of a JSON error response. */
export async function errorMessage(res: Response): Promise<string> {
  return ((await res.json()) as { error: string }).error;
}
