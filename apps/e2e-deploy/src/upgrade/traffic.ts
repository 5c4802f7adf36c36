import { randomBytes } from 'node:crypto';
import { discussionEvent, type HubTarget, repoEvent, type TestUser } from '@hub/testing';
import { pause } from '../stack/compose-stack';

/** One API call as a client makes it: JSON in and out, a bounded wait. */
export interface Answer {
  status: number;
  body: unknown;
}

/** What a failed call looked like, for the report. */
export interface Failure {
  call: string;
  detail: string;
  at: string;
  /** For an "Internal error (id …)": the log lines that name the id, read as the failure happened. */
  logs?: string;
}

/** The log lines of the running stack that name an error id (its pods, its containers). */
export type LogsNaming = (errorId: string) => Promise<string>;

/** The lines of a log that name `needle`. */
export function linesNaming(log: string, needle: string): string[] {
  return log.split('\n').filter((line) => line.includes(needle));
}

/**
 * A client that rides through a replaced container as a client library would: a refused or cut
 * connection, a 502/503/504 or a timeout is tried again, with a growing pause, for up to
 * `retryForMs`; anything else (a 4xx, a 500) is the answer. A call that still fails then is a
 * failure of the upgrade ("no API call failed beyond a client retry").
 */
export class RetryingClient {
  /** Calls that needed more than one try (the rollout was seen), and the longest wait. */
  retried = 0;
  longestRetryMs = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly retryForMs = 120_000,
  ) {}

  async call(method: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<Answer> {
    const started = Date.now();
    let wait = 250;
    for (let attempt = 1; ; attempt++) {
      let answer: Answer | undefined;
      let error = '';
      try {
        const headers: Record<string, string> = {};
        if (opts.token) headers['authorization'] = `Bearer ${opts.token}`;
        if (opts.body !== undefined) headers['content-type'] = 'application/json';
        const res = await fetch(`${this.baseUrl}${path}`, {
          method,
          headers,
          body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
          signal: AbortSignal.timeout(20_000),
        });
        const text = await res.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        answer = { status: res.status, body };
        if (![502, 503, 504].includes(res.status)) {
          if (attempt > 1) this.noteRetry(started);
          return answer;
        }
        error = `${res.status} ${text.slice(0, 200)}`;
      } catch (e) {
        error = (e as Error).message;
      }
      if (Date.now() - started > this.retryForMs) {
        if (answer) return answer;
        throw new Error(`${method} ${path}: ${error} (still after ${Date.now() - started} ms of retries)`);
      }
      await pause(wait);
      wait = Math.min(wait * 2, 4000);
    }
  }

  private noteRetry(started: number): void {
    this.retried += 1;
    this.longestRetryMs = Math.max(this.longestRetryMs, Date.now() - started);
  }
}

/** What the traffic did, checked at the end. */
export interface TrafficLedger {
  /** Repo events the gateway accepted for the webhook (each must reach the receiver). */
  accepted: Set<string>;
  /** Discussion events the gateway accepted, each mentioning the inbox user once. */
  mentions: number;
  /** Repository creations in the organization the gateway accepted (each an audit event). */
  auditRepos: Set<string>;
  /** Tokens made during the traffic and used at once (each must have answered whoami). */
  tokensMade: number;
  /** Whoami calls with the tokens made before the upgrade. */
  oldTokenCalls: number;
  failures: Failure[];
}

export interface TrafficSubjects {
  hub: HubTarget;
  /** Owns the webhook's repo; tokens are made for this user. */
  owner: TestUser;
  repo: string;
  /** Mentioned by the discussion events (the notifications inbox checked at the end). */
  inboxUser: TestUser;
  org: string;
  /** Tokens made before the upgrade, used throughout. */
  oldTokens: string[];
}

/**
 * Traffic through the gateway while the stack is upgraded: `workers` loops, each turn one of a
 * webhook-triggering repo event (most turns), a token made and used, a call with a token made
 * before, a discussion event mentioning the inbox user, a repository created in the organization
 * (an audit event). Every call goes through the retrying client; what still fails is a failure.
 */
export class Traffic {
  readonly ledger: TrafficLedger = {
    accepted: new Set(),
    mentions: 0,
    auditRepos: new Set(),
    tokensMade: 0,
    oldTokenCalls: 0,
    failures: [],
  };
  private stopped = false;
  private turn = 0;
  private running: Promise<void> | undefined;
  private readonly explaining: Promise<void>[] = [];

  constructor(
    private readonly client: RetryingClient,
    private readonly s: TrafficSubjects,
    /** Looked up at once: the pod or container that logged it may be gone by the end. */
    private readonly logsNaming?: LogsNaming,
  ) {}

  start(workers = 4): void {
    this.running = Promise.all(Array.from({ length: workers }, () => this.loop())).then(() => undefined);
  }

  async stop(): Promise<TrafficLedger> {
    this.stopped = true;
    await this.running;
    await Promise.all(this.explaining);
    return this.ledger;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const n = this.turn++;
      const kind = n % 20;
      try {
        if (kind === 5) await this.makeAndUseToken();
        else if (kind === 10) await this.useOldToken(n);
        else if (kind === 15) await this.mention();
        else if (kind === 19) await this.auditRepo(n);
        else await this.repoEvent(n);
      } catch (e) {
        this.fail(`turn ${n}`, (e as Error).message);
      }
      // A steady rate rather than as fast as the machine goes: at most 10 calls a second per worker.
      await pause(100);
    }
  }

  private fail(call: string, detail: string): void {
    const failure: Failure = { call, detail: detail.slice(0, 300), at: new Date().toISOString() };
    this.ledger.failures.push(failure);
    const errorId = /Internal error \(id ([0-9a-f-]+)\)/.exec(detail)?.[1];
    if (errorId && this.logsNaming)
      this.explaining.push(
        this.logsNaming(errorId).then(
          (lines) => void (failure.logs = lines.slice(0, 4000) || `no log line names ${errorId}`),
          (e: Error) => void (failure.logs = `the logs could not be read: ${e.message.slice(0, 300)}`),
        ),
      );
  }

  private async publish(subject: string, payload: unknown): Promise<boolean> {
    const res = await this.client.call('POST', '/admin/events', {
      token: this.s.hub.adminToken,
      body: { subject, payload },
    });
    if (res.status === 202) return true;
    this.fail(`publish ${subject}`, `${res.status} ${JSON.stringify(res.body)}`);
    return false;
  }

  private async repoEvent(n: number): Promise<void> {
    const action = `u${n}`;
    if (await this.publish('hub.events.repo.update', repoEvent(this.s.repo, 'repo.content', action)))
      this.ledger.accepted.add(action);
  }

  private async makeAndUseToken(): Promise<void> {
    const made = await this.client.call('POST', `/admin/users/${this.s.owner.name}/tokens`, {
      token: this.s.hub.adminToken,
      body: { role: 'read' },
    });
    if (made.status !== 201) return this.fail('make token', `${made.status} ${JSON.stringify(made.body)}`);
    const token = (made.body as { token: string }).token;
    const who = await this.client.call('GET', '/api/whoami-v2', { token });
    if (who.status !== 200 || (who.body as { name?: string }).name !== this.s.owner.name)
      return this.fail('whoami with a new token', `${who.status} ${JSON.stringify(who.body)}`);
    this.ledger.tokensMade += 1;
  }

  private async useOldToken(n: number): Promise<void> {
    const token = this.s.oldTokens[n % this.s.oldTokens.length];
    const who = await this.client.call('GET', '/api/whoami-v2', { token });
    if (who.status !== 200)
      return this.fail('whoami with a token made before', `${who.status} ${JSON.stringify(who.body)}`);
    this.ledger.oldTokenCalls += 1;
  }

  private async mention(): Promise<void> {
    const event = discussionEvent({
      actor: this.s.owner,
      repo: this.s.repo,
      discussionId: randomBytes(12).toString('hex'),
      mentions: [this.s.inboxUser],
    });
    if (await this.publish('hub.events.discussion.create', event)) this.ledger.mentions += 1;
  }

  private async auditRepo(n: number): Promise<void> {
    const name = `${this.s.org}/r${n}`;
    const payload = { event: { action: 'create', scope: 'repo' }, repo: { type: 'model', name, private: false } };
    if (await this.publish('hub.events.repo.create', payload)) this.ledger.auditRepos.add(name);
  }
}
