import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { type BlockList, isIP } from 'node:net';
import { guardedLookup, isBlockedAddress } from '@hub/config';

export const MAX_LOGGED_BODY = 20 * 1024;

// Kept-alive connections: the guard still runs on every new connection (the lookup below), and a
// reused socket goes to an address that passed it.
const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 256 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 256 }),
};

export interface SendResult {
  /** null when no answer came (refused, timed out, blocked). */
  status: number | null;
  headers: Record<string, string>;
  body: string;
  error: string | null;
  durationMs: number;
}

function flatHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** One POST: no redirects followed, a hard timeout, the response body kept up to 20 KB. */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  allowed: BlockList,
): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({
    ...r,
    durationMs: Math.round(performance.now() - started),
  });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve(done({ status: null, headers: {}, body: '', error: 'invalid url' }));
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && isBlockedAddress(host, allowed)) {
      return resolve(done({ status: null, headers: {}, body: '', error: `${host} is a blocked address` }));
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(allowed),
        timeout: timeoutMs,
        agent: target.protocol === 'https:' ? agents.https : agents.http,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < MAX_LOGGED_BODY) chunks.push(c);
          size += c.length;
        });
        res.on('end', () =>
          resolve(
            done({
              status: res.statusCode ?? null,
              headers: flatHeaders(res.headers),
              body: Buffer.concat(chunks).subarray(0, MAX_LOGGED_BODY).toString('utf8'),
              error: null,
            }),
          ),
        );
        res.on('error', (e) =>
          resolve(
            done({ status: res.statusCode ?? null, headers: flatHeaders(res.headers), body: '', error: e.message }),
          ),
        );
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    req.on('error', (e) => resolve(done({ status: null, headers: {}, body: '', error: e.message })));
    req.end(body);
  });
}
