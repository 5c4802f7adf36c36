import { type IncomingHttpHeaders } from 'node:http';
import { CSRF_HEADER } from '@hub/service-gateway';

/** Hop-by-hop headers (RFC 9110 7.6.1): never forwarded, either way. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

/**
 * The caller's credentials for the hub (decision 0615, issue 35): its bearer token, its cookies
 * (the console's session among them) and the console's CSRF header. A job is someone's code, and
 * a public port is open to every caller: none of them reaches it, on any port.
 */
const CREDENTIALS = new Set(['authorization', 'proxy-authorization', 'cookie', CSRF_HEADER]);

/** The headers of a request to a job's exposed port, as the job receives them (before the X-Forwarded-* ones). */
export function jobRequestHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) {
    const name = k.toLowerCase();
    if (v === undefined || HOP_BY_HOP.has(name) || CREDENTIALS.has(name)) continue;
    out[k] = v;
  }
  return out;
}
