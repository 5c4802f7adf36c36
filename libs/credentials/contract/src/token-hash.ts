import { hash } from 'node:crypto';

/**
 * The SHA-256 (hex) of an access token: the only form a token is stored in (credentials) and the
 * only form that crosses the bus (decision 0013); the gateway's token cache is keyed by it too.
 * The one-shot `crypto.hash` (node >= 20.12): no Hash object per request on the hot path.
 */
export function tokenHash(raw: string): string {
  return hash('sha256', raw, 'hex');
}
