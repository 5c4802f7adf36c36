import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks headers, re-signed per attempt: `webhook-id` stays the same across retries,
 * the timestamp is the attempt's, the key is the secret's bytes (verifiable with the
 * `standardwebhooks` package as `new Webhook(secret, {format: 'raw'})`).
 */
export function standardWebhookHeaders(
  id: string,
  secret: string,
  body: string,
  now = new Date(),
): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  // The key as a string is its UTF-8 bytes; the body is hashed where it is, not copied after its prefix.
  const mac = createHmac('sha256', secret).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${mac}` };
}
