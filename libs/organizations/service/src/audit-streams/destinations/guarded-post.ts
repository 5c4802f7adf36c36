import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { type BlockList, isIP } from 'node:net';
import { guardedLookup, isBlockedAddress } from '@hub/config';

/** What a destination answered to one request (or why it did not). */
export interface SendOutcome {
  ok: boolean;
  /** null when no answer came (refused, timed out, blocked). */
  status: number | null;
  /** The answer's body, at most 2 kB (kept in the test's reply; the delivery log keeps the error). */
  body: string;
  error: string | null;
  latencyMs: number;
}

export const MAX_ANSWER = 2048;

/** One agent pair per allowed-network list: the guard runs on every new connection (its lookup). */
export function guardedAgents(allowed: BlockList): { http: HttpAgent; https: HttpsAgent } {
  const lookup = guardedLookup(allowed);
  return {
    http: new HttpAgent({ keepAlive: true, maxSockets: 16, lookup }),
    https: new HttpsAgent({ keepAlive: true, maxSockets: 16, lookup }),
  };
}

/** A literal address in the URL is judged here; a name is judged at connect time by the agents' lookup. */
export function blockedLiteral(url: URL, allowed: BlockList): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) && isBlockedAddress(host, allowed) ? `${host} is a blocked address` : null;
}

/**
 * One POST through the SSRF guard: no redirect followed, a hard timeout, 2xx is success. Every
 * destination's request goes through here (or through the same agents, for the S3 client).
 */
export function guardedPost(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  opts: { timeoutMs: number; allowed: BlockList; agents: { http: HttpAgent; https: HttpsAgent } },
): Promise<SendOutcome> {
  const started = performance.now();
  const done = (r: Omit<SendOutcome, 'latencyMs' | 'ok'>): SendOutcome => ({
    ...r,
    ok: r.status !== null && r.status >= 200 && r.status < 300,
    latencyMs: Math.round(performance.now() - started),
  });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve(done({ status: null, body: '', error: 'invalid url' }));
    }
    const blocked = blockedLiteral(target, opts.allowed);
    if (blocked) return resolve(done({ status: null, body: '', error: blocked }));
    const tls = target.protocol === 'https:';
    const req = (tls ? httpsRequest : httpRequest)(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(body.length) },
        agent: tls ? opts.agents.https : opts.agents.http,
        timeout: opts.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < MAX_ANSWER) chunks.push(c);
          size += c.length;
        });
        res.on('end', () => {
          const status = res.statusCode ?? null;
          const text = Buffer.concat(chunks).subarray(0, MAX_ANSWER).toString('utf8');
          const ok = status !== null && status >= 200 && status < 300;
          resolve(done({ status, body: text, error: ok ? null : `HTTP ${status}: ${text.slice(0, 200)}` }));
        });
        res.on('error', (e) => resolve(done({ status: res.statusCode ?? null, body: '', error: e.message })));
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('timeout', () => req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`)));
    req.on('error', (e) => resolve(done({ status: null, body: '', error: e.message })));
    req.end(body);
  });
}
