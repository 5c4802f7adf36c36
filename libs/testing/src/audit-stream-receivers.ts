// s3rver ships no types: its declaration goes with this file into every project that compiles it.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./s3rver.d.ts" />
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { Webhook } from 'standardwebhooks';

/** An audit event as a destination received it (the export's JSON). */
export interface StreamedEvent {
  _id: string;
  type: string;
  createdAt: string;
  [k: string]: unknown;
}

/**
 * A destination on loopback for the audit stream tests: it keeps the events it received in
 * arrival order, and what broke its protocol's rules in `problems` (a test expects none).
 */
export interface StreamReceiver {
  url: string;
  events: StreamedEvent[];
  /** Requests (batches) received. */
  requests: number;
  problems: string[];
  /** While set, answers 503 and keeps nothing (an outage). */
  down: boolean;
  /** Keeps what arrives at once but answers this much later (a slow destination: a batch stays in flight). */
  delayMs: number;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

type Check = (req: IncomingMessage, body: Buffer) => { events: StreamedEvent[]; answer: [number, string] };

async function serve(check: Check): Promise<StreamReceiver> {
  const r: StreamReceiver = {
    url: '',
    events: [],
    requests: 0,
    problems: [],
    down: false,
    delayMs: 0,
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      if (r.down) return void res.writeHead(503).end('{"error":"down"}');
      try {
        const { events, answer } = check(req, body);
        r.requests++;
        r.events.push(...events);
        const answered = () => res.writeHead(answer[0], { 'content-type': 'application/json' }).end(answer[1]);
        if (r.delayMs > 0) setTimeout(answered, r.delayMs);
        else answered();
      } catch (err) {
        r.problems.push((err as Error).message);
        res.writeHead(400).end(JSON.stringify({ error: (err as Error).message }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  r.close = () => new Promise((resolve) => server.close(() => resolve()));
  return r;
}

function expectThat(ok: boolean, problem: string): void {
  if (!ok) throw new Error(problem);
}

/** Any HTTPS endpoint: JSON lines signed with Standard Webhooks headers, verified with the `standardwebhooks` package. */
export function startHttpsReceiver(secret: string): Promise<StreamReceiver> {
  const verifier = new Webhook(Buffer.from(secret, 'utf8').toString('base64'));
  return serve((req, body) => {
    expectThat(req.method === 'POST', `https: ${req.method} instead of POST`);
    expectThat(
      req.headers['content-type'] === 'application/x-ndjson',
      'https: content-type is not application/x-ndjson',
    );
    // verify() would also JSON.parse the body, which JSON lines are not: the signature is checked the same way by hand.
    const [id, timestamp, signature] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) =>
      String(req.headers[h]),
    );
    const expected = verifier.sign(id, new Date(Number(timestamp) * 1000), body.toString('utf8'));
    expectThat(signature.split(' ').includes(expected), 'https: the Standard Webhooks signature does not verify');
    expectThat(Math.abs(Date.now() / 1000 - Number(timestamp)) < 300, 'https: webhook-timestamp out of tolerance');
    const lines = body.toString('utf8').split('\n');
    expectThat(lines.pop() === '', 'https: the body does not end with a newline');
    return { events: lines.map((l) => JSON.parse(l) as StreamedEvent), answer: [200, '{"ok":true}'] };
  });
}

/** A Splunk HTTP Event Collector: `/services/collector/event`, `Authorization: Splunk <token>`, events with time and sourcetype. */
export function startSplunkReceiver(token: string): Promise<StreamReceiver> {
  return serve((req, body) => {
    expectThat(req.url === '/services/collector/event', `splunk: posted to ${req.url}`);
    expectThat(req.headers.authorization === `Splunk ${token}`, 'splunk: wrong Authorization');
    const text = body.toString('utf8').trim();
    // HEC's batch: JSON objects one after the other.
    const objects = JSON.parse(`[${text.replace(/}\s*\n\s*{/g, '},{')}]`) as {
      time?: unknown;
      sourcetype?: unknown;
      event?: StreamedEvent;
    }[];
    for (const o of objects) {
      expectThat(typeof o.time === 'number', 'splunk: an event without a numeric time');
      expectThat(typeof o.sourcetype === 'string', 'splunk: an event without sourcetype');
      expectThat(typeof o.event?._id === 'string', 'splunk: an event without the audit event');
    }
    return { events: objects.map((o) => o.event as StreamedEvent), answer: [200, '{"text":"Success","code":0}'] };
  });
}

/** Datadog's logs intake: `/api/v2/logs`, `DD-API-KEY`, an array of at most 1,000 logs and 5 MB. */
export function startDatadogReceiver(apiKey: string): Promise<StreamReceiver> {
  return serve((req, body) => {
    expectThat(req.url === '/api/v2/logs', `datadog: posted to ${req.url}`);
    expectThat(req.headers['dd-api-key'] === apiKey, 'datadog: wrong DD-API-KEY');
    expectThat(req.headers['content-type'] === 'application/json', 'datadog: content-type is not application/json');
    expectThat(body.length <= 5 * 1024 * 1024, 'datadog: payload over 5 MB');
    const logs = JSON.parse(body.toString('utf8')) as { message?: string; ddsource?: string }[];
    expectThat(Array.isArray(logs) && logs.length <= 1000, 'datadog: not an array of at most 1,000 logs');
    for (const l of logs)
      expectThat(typeof l.message === 'string' && l.message.length <= 1024 * 1024, 'datadog: bad message');
    return { events: logs.map((l) => JSON.parse(l.message as string) as StreamedEvent), answer: [202, '{}'] };
  });
}

/** An S3-compatible server (s3rver) with one bucket, and a reader of the objects streams put there. */
export interface S3Receiver {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Every object under `prefix`, by key order (time, then uuid), with the events in it. */
  objects(prefix: string): Promise<{ key: string; events: StreamedEvent[] }[]>;
  close(): Promise<void>;
}

export async function startS3Receiver(bucket = 'audit-streams'): Promise<S3Receiver> {
  const directory = mkdtempSync(join(tmpdir(), 'audit-stream-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    endpoint,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async objects(prefix) {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/` }));
      const keys = (listed.Contents ?? []).map((c) => c.Key as string).sort();
      return Promise.all(
        keys.map(async (key) => {
          const obj = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
          const raw = Buffer.from(
            await (obj.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
          );
          // s3rver may hand the object back already decoded (Content-Encoding: gzip): take either form.
          const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
          const events = text
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as StreamedEvent);
          return { key, events };
        }),
      );
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
