import { request } from 'node:http';
import { http } from '../http-client';
import { type HubTarget } from '../hub-factory';

/** Shared by the issue 22 access scenarios (decision 0014): targets, bounds and stream readers. */

export interface AccessTarget extends HubTarget {
  /** Every gateway replica (one in the all-in-one hub): streams open on the first, revocations go through the last. */
  gateways: string[];
  /** Whether a jobs service runs behind these gateways. */
  jobs: boolean;
}

export interface AuditCutOffTarget extends HubTarget {
  gateways: string[];
  databaseUrl: string;
}

/**
 * How soon an open answer must end after the answer to the revocation (the item asks for 1 s).
 * The path is one bus message to the gateway holding the answer and a local call there, no
 * polling; on this loaded 2-core machine that is tens of ms, and the other replica tests of the
 * same event (a revoked token is refused within 1 s) hold with the same bound. Without the fix
 * the answers run until the job ends (minutes here) or the export is complete.
 */
export const ENDS_WITHIN_MS = 1000;

const LOOP = ['sh', '-c', 'while true; do echo tick; sleep 0.2; done'];
export const ROLES = ['admin', 'write', 'contributor', 'read', 'no_access'] as const;

/** Polls `call` until it answers `status` (or 3 s pass); returns the last status. */
export async function statusWithin(call: () => Promise<{ status: number }>, status: number): Promise<number> {
  const deadline = Date.now() + 3000;
  let last = (await call()).status;
  while (last !== status && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    last = (await call()).status;
  }
  return last;
}

export async function runLoopingJob(t: HubTarget, token: string, namespace: string): Promise<string> {
  const res = await http<{ id: string }>(t.baseUrl, 'POST', `/api/jobs/${namespace}`, {
    token,
    body: { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: LOOP },
  });
  if (res.status !== 200) throw new Error(`run job answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** Stops a looping job (with a token that can still change the namespace's jobs). */
export async function cancelJob(t: HubTarget, token: string, namespace: string, jobId: string): Promise<void> {
  const res = await http(t.baseUrl, 'POST', `/api/jobs/${namespace}/${jobId}/cancel`, { token });
  if (res.status !== 200) throw new Error(`cancel answered ${res.status}: ${JSON.stringify(res.body)}`);
}

export interface OpenSse {
  /** When the answer ended (Date.now()), whatever ended it; Infinity when still open 10 s after it was opened. */
  ended: Promise<number>;
  isEnded(): boolean;
  text(): string;
  /** Resolves once the answer's text contains `part` (fails after 20 s). */
  received(part: string): Promise<void>;
  abort(): void;
}

/** Opens a server-sent-events answer and resolves once the stream is open (its first comment arrived). */
export async function openSse(url: string, token: string): Promise<OpenSse> {
  const controller = new AbortController();
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let endedAt = 0;
  let opened: () => void = () => undefined;
  const open = new Promise<void>((r) => {
    opened = r;
  });
  const ending = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        if (text.includes(': stream open')) opened();
      }
    } catch {
      // aborted or cut: ended either way
    }
    endedAt = Date.now();
    opened();
    return endedAt;
  })();
  await open;
  // Not ended after 10 s counts as never (the assertion then fails with a time, not a jest timeout).
  const ended = Promise.race([
    ending,
    new Promise<number>((r) => setTimeout(() => r(Number.POSITIVE_INFINITY), 10_000).unref()),
  ]);
  const received = async (part: string): Promise<void> => {
    const deadline = Date.now() + 20_000;
    while (!text.includes(part)) {
      if (Date.now() > deadline || endedAt > 0)
        throw new Error(`${url}: no ${JSON.stringify(part)} in ${JSON.stringify(text)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { ended, isEnded: () => endedAt > 0, text: () => text, received, abort: () => controller.abort() };
}

/** Between two chunks, readToEnd waits this long: an uncut 24 MB export then lasts several seconds. */
const SLOW_READ_PAUSE_MS = 10;

/**
 * A GET whose body is not read after its first chunk until readToEnd, which then reads it slowly
 * (a chunk, a pause): a client that reads slowly. Reading at full speed would keep the hub busy
 * serving it (in the all-in-one hub, the very event loop that must notice the revocation), and
 * the time to the cut would measure this client's greed, not the hub.
 */
export function openPaused(
  url: string,
  token: string,
): Promise<{ status: number; readToEnd(): Promise<{ endedAt: number; body: string }> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.once('data', (chunk: Buffer) => {
        chunks.push(chunk);
        res.pause();
        resolve({
          status: res.statusCode ?? 0,
          readToEnd: () =>
            new Promise((done) => {
              let endedAt = 0;
              const finish = () => {
                endedAt ||= Date.now();
                done({ endedAt, body: Buffer.concat(chunks).toString('utf8') });
              };
              res.on('data', (c: Buffer) => {
                chunks.push(c);
                res.pause();
                setTimeout(() => res.resume(), SLOW_READ_PAUSE_MS);
              });
              // A cut connection ends the message with an error (aborted) and close; a complete one with end.
              res.once('end', finish);
              res.once('close', finish);
              res.on('error', () => undefined);
              res.resume();
            }),
        });
      });
    });
    req.once('error', reject);
    req.end();
  });
}
