import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface CapturedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown>;
  at: number;
}

export type CaptureReply = { status: number; headers?: Record<string, string>; body?: string };

/**
 * A real HTTP receiver on loopback for webhook tests: records every request and answers what the
 * test's `reply` says for each path (200 `{}` by default).
 */
export interface WebhookCapture {
  url(path: string, host?: string): string;
  port: number;
  received: CapturedDelivery[];
  /** How to answer each request at `path`; a promise holds the answer (the request counts as received at once). */
  on(path: string, reply: (n: number, d: CapturedDelivery) => CaptureReply | Promise<CaptureReply>): void;
  waitFor(path: string, count: number, timeoutMs?: number): Promise<CapturedDelivery[]>;
  at(path: string): CapturedDelivery[];
  close(): Promise<void>;
}

export async function startWebhookCapture(host = '127.0.0.1'): Promise<WebhookCapture> {
  const received: CapturedDelivery[] = [];
  const replies = new Map<string, (n: number, d: CapturedDelivery) => CaptureReply | Promise<CaptureReply>>();
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        json = {};
      }
      const path = (req.url ?? '/').split('?')[0];
      const d: CapturedDelivery = { path, headers: req.headers, body, json, at: Date.now() };
      received.push(d);
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      void Promise.resolve(replies.get(path)?.(n, d) ?? { status: 200, body: '{}' }).then((reply) => {
        // A held answer may find its sender gone (killed): nothing to write to then.
        if (res.destroyed) return;
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body ?? '{}');
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  const port = (server.address() as AddressInfo).port;
  const at = (path: string): CapturedDelivery[] => received.filter((d) => d.path === path);
  return {
    port,
    received,
    url: (path, h = host) => `http://${h}:${port}${path}`,
    on: (path, reply) => replies.set(path, reply),
    at,
    async waitFor(path, count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (at(path).length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} deliveries at ${path}, got ${at(path).length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return at(path);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
