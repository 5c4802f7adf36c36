import { createHmac, timingSafeEqual } from 'node:crypto';
import { ReceiverErrors, type WebhookReceiverError } from './receiver.errors';
import { headerValue, type HeaderBag } from './receiver.types';

export const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export type SignatureCheck =
  { kind: 'unsigned' } | { kind: 'verified'; webhookId: string } | { kind: 'rejected'; error: WebhookReceiverError };

/** Signature headers are present: the caller must verify them before trusting the body. */
export function hasSignatureHeaders(headers: HeaderBag): boolean {
  return SIGNATURE_HEADERS.some((name) => headerValue(headers, name) !== undefined);
}

/**
 * Standard Webhooks v1 verification: `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`,
 * keyed with the secret's UTF-8 bytes, i.e. what `new Webhook(secret, {format: "raw"})` of the
 * `standardwebhooks` package signs (see docs/decisions/0101). Implemented on node:crypto rather
 * than with that package: it keeps the package free of runtime dependencies and node's native
 * HMAC is several times faster than the package's pure-JS SHA-256.
 */
export class WebhookSignatureVerifier {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
    private readonly now: () => number = Date.now,
  ) {
    this.key = Buffer.from(secret, 'utf8');
  }

  check(headers: HeaderBag, rawBody: Buffer): SignatureCheck {
    const id = headerValue(headers, 'webhook-id');
    const timestamp = headerValue(headers, 'webhook-timestamp');
    const signatures = headerValue(headers, 'webhook-signature');
    if (id === undefined && timestamp === undefined && signatures === undefined) return { kind: 'unsigned' };
    if (!id || !timestamp || !signatures) {
      const missing = !id ? 'webhook-id' : !timestamp ? 'webhook-timestamp' : 'webhook-signature';
      return { kind: 'rejected', error: ReceiverErrors.signatureHeadersIncomplete(missing) };
    }
    if (!/^\d{1,15}$/.test(timestamp)) return { kind: 'rejected', error: ReceiverErrors.signatureTimestampInvalid() };
    const seconds = Number(timestamp);
    if (Math.abs(Math.floor(this.now() / 1000) - seconds) > this.toleranceSeconds) {
      return { kind: 'rejected', error: ReceiverErrors.signatureTimestampOutOfTolerance(this.toleranceSeconds) };
    }
    // Sign the parsed number, as the reference implementation does, so "0170…" cannot differ.
    const expected = createHmac('sha256', this.key).update(`${id}.${seconds}.`).update(rawBody).digest();
    const matches = signatures.split(' ').some((entry) => {
      const [version, value] = entry.split(',', 2);
      if (version !== 'v1' || !value) return false; // other schemes (v1a, …) are not ours to check
      const given = Buffer.from(value, 'base64');
      // A length mismatch says nothing secret: every valid v1 signature is 32 bytes.
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    return matches
      ? { kind: 'verified', webhookId: id }
      : { kind: 'rejected', error: ReceiverErrors.signatureInvalid() };
  }
}
