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

/** Parsed targets by URL: a webhook's URL is parsed once, not per attempt (a URL object is read, never changed, here). */
const targets = new Map<string, URL>();
const MAX_TARGETS = 1024;

function targetOf(url: string): URL {
  let target = targets.get(url);
  if (target) return target;
  target = new URL(url);
  targets.set(url, target);
  if (targets.size > MAX_TARGETS) targets.delete(targets.keys().next().value as string);
  return target;
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
      target = targetOf(url);
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
        // No socket idle timeout besides the hard timer below: it fires first anyway (an idle
        // timeout of timeoutMs cannot end a request sooner), and re-arming it per request costs.
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
    req.on('error', (e) => resolve(done({ status: null, headers: {}, body: '', error: e.message })));
    req.end(body);
  });
}
