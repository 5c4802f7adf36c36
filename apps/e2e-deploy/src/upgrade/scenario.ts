import {
  consoleSignIn,
  eventually,
  http,
  makeOrg,
  makeToken,
  makeUser,
  readSse,
  repoEvent,
  uniqueName,
  waitForStage,
  withCookie,
  type HubTarget,
  type TestUser,
} from '@hub/testing';
import type { Delivery } from '../stack/receiver';
import { type LogsNaming, RetryingClient, Traffic, type TrafficLedger } from './traffic';

/** Where the scenario's webhook delivers, and what the receiver got (a container on Compose, a host process on Kubernetes). */
export interface Receiver {
  /** The URL the hub's webhooks service delivers to. */
  url(path: string): string;
  deliveries(path: string): Promise<Delivery[]>;
}

interface AuditRow {
  type: string;
  data?: unknown;
  message: string;
}

/** What the report prints: the traffic's figures, the client's retries, each step's seconds. */
export interface UpgradeReport {
  accepted: number;
  delivered: number;
  missing: number;
  mentions: number;
  auditRepos: number;
  tokensMade: number;
  oldTokenCalls: number;
  retried: number;
  longestRetryMs: number;
  failures: number;
  steps: { step: string; seconds: number }[];
}

/**
 * The upgrade scenario shared by Compose and Kubernetes (decision 0207): what the previous release
 * makes before the upgrade (users, tokens, an organization, a webhook to the receiver, a console
 * session, a job writing its log for 2 minutes), the traffic that flows through the gateway while
 * the services are replaced (traffic.ts), the progress each step waits for, and every check at the
 * end. The caller does the replacing (its platform's way) between `startTraffic` and `finish`.
 */
export class UpgradeScenario {
  readonly client: RetryingClient;
  readonly steps: { step: string; seconds: number }[] = [];
  private readonly path = `/${uniqueName('upgrade')}`;
  private owner!: TestUser;
  private inboxUser!: TestUser;
  private oldTokens: string[] = [];
  private org = '';
  private repo = '';
  private session!: Awaited<ReturnType<typeof consoleSignIn>>;
  private traffic: Traffic | undefined;
  private earlyJob = '';
  private laterJob = '';
  private readonly earlyLines = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`);

  constructor(
    private readonly hub: HubTarget,
    private readonly receiver: Receiver,
    /** Where a 500's error id is looked up (the traffic's failures then carry the lines). */
    private readonly logsNaming?: LogsNaming,
  ) {
    this.client = new RetryingClient(hub.baseUrl);
  }

  /** Runs `fn` and records how long it took under `step`. */
  async timed<T>(step: string, fn: () => Promise<T>): Promise<T> {
    const t0 = Date.now();
    const out = await fn();
    this.steps.push({ step, seconds: Math.round((Date.now() - t0) / 100) / 10 });
    return out;
  }

  /** What exists before the upgrade, made by the previous release; then the early job (2 minutes of log lines). */
  async before(): Promise<void> {
    const hub = this.hub;
    this.owner = await makeUser(hub, 'write', 'upg');
    this.inboxUser = await makeUser(hub, 'write', 'inbox');
    this.oldTokens = [this.owner.token, (await makeToken(hub, this.owner.name, 'read')).token, this.inboxUser.token];
    this.org = (await makeOrg(hub, 'enterprise', [this.owner.name], 'upgorg')).name;
    this.repo = `${this.owner.name}/${uniqueName('repo')}`;
    const hook = await http<{ webhook: { id: string } }>(hub.baseUrl, 'POST', '/api/settings/webhooks', {
      token: this.owner.token,
      body: {
        watched: [{ type: 'model', name: this.repo }],
        domains: ['repo'],
        url: this.receiver.url(this.path),
        secret: 's3cret',
      },
    });
    expect(hook.status).toBe(200);
    this.session = await consoleSignIn(hub.baseUrl, this.owner.token);
    // Writes a line every 2 s for 2 min: across the migrations, its log written by the previous
    // release's jobs service on the migrated schema.
    this.earlyJob = await this.startJob('for i in $(seq 1 60); do echo line $i; sleep 2; done');
  }

  private async startJob(script: string): Promise<string> {
    const res = await http<{ id: string }>(this.hub.baseUrl, 'POST', `/api/jobs/${this.owner.name}`, {
      token: this.owner.token,
      body: { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['sh', '-c', script] },
    });
    expect(res.status).toBe(200);
    await waitForStage(this.hub, this.owner.token, this.owner.name, res.body.id, ['RUNNING'], 180_000);
    return res.body.id;
  }

  startTraffic(): void {
    this.traffic = new Traffic(
      this.client,
      {
        hub: this.hub,
        owner: this.owner,
        repo: this.repo,
        inboxUser: this.inboxUser,
        org: this.org,
        oldTokens: this.oldTokens,
      },
      this.logsNaming,
    );
    this.traffic.start();
  }

  private async delivered(): Promise<number> {
    return new Set((await this.receiver.deliveries(this.path)).map((d) => d.action)).size;
  }

  /** Progress, not time: waits until `n` more events reached the receiver than now. */
  async moreDelivered(n: number): Promise<void> {
    const before = await this.delivered();
    await eventually(
      () => this.delivered(),
      (d) => d >= before + n,
      300_000,
      500,
    );
  }

  /**
   * Before the jobs service is replaced: the early job ends on the previous release's jobs service
   * (its part is the migrations), then a later job starts that runs across the replacement.
   */
  async beforeJobsReplaced(): Promise<void> {
    await waitForStage(
      this.hub,
      this.owner.token,
      this.owner.name,
      this.earlyJob,
      ['COMPLETED', 'ERROR', 'CANCELED'],
      300_000,
    );
    this.laterJob = await this.startJob('echo started; sleep 30; echo settled');
  }

  /** Stops the traffic (also when a step failed: call it in a `finally`). */
  async stopTraffic(): Promise<TrafficLedger> {
    if (!this.traffic) throw new Error('startTraffic was not called');
    return this.traffic.stop();
  }

  /**
   * Every check after the upgrade: each accepted event delivered, no call failed beyond the
   * client's retries, tokens made before still work, the console session made before and a new
   * sign-in, the jobs settled with their output, every mention in the inbox, every repository in
   * the audit log, and the webhook made before still delivers. Returns the report (also printed).
   */
  async checkAfter(ledger: TrafficLedger): Promise<UpgradeReport> {
    const { baseUrl } = this.hub;
    const got = await eventually(
      async () => new Set((await this.receiver.deliveries(this.path)).map((d) => d.action)),
      (seen) => [...ledger.accepted].every((a) => seen.has(a)),
      600_000,
      1000,
    );
    const missing = [...ledger.accepted].filter((a) => !got.has(a));
    const report: UpgradeReport = {
      accepted: ledger.accepted.size,
      delivered: got.size,
      missing: missing.length,
      mentions: ledger.mentions,
      auditRepos: ledger.auditRepos.size,
      tokensMade: ledger.tokensMade,
      oldTokenCalls: ledger.oldTokenCalls,
      retried: this.client.retried,
      longestRetryMs: this.client.longestRetryMs,
      failures: ledger.failures.length,
      steps: this.steps,
    };
    console.log(`upgrade under traffic: ${JSON.stringify(report)}`);
    expect(ledger.failures).toEqual([]);
    expect(missing.slice(0, 20)).toEqual([]);
    expect(ledger.accepted.size).toBeGreaterThan(100);
    expect(ledger.tokensMade).toBeGreaterThan(0);
    expect(ledger.oldTokenCalls).toBeGreaterThan(0);

    // Tokens made before still work; the console session made before is still signed in, and a new sign-in works.
    for (const token of this.oldTokens)
      expect((await http(baseUrl, 'GET', '/api/whoami-v2', { token })).status).toBe(200);
    expect(await withCookie(baseUrl, 'GET', '/api/console/session', this.session)).toMatchObject({
      status: 200,
      body: { user: { name: this.owner.name } },
    });
    const again = await consoleSignIn(baseUrl, this.inboxUser.token);
    expect(again.body.user?.name).toBe(this.inboxUser.name);
    const page = await fetch(`${baseUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);

    // The jobs that ran across the upgrade settle, with their output.
    const jobLog = async (id: string): Promise<string[]> =>
      (await readSse(`${baseUrl}/api/jobs/${this.owner.name}/${id}/logs`, this.owner.token)).data.map(
        (d) => (JSON.parse(d) as { data: string }).data,
      );
    const settled = (id: string) =>
      waitForStage(this.hub, this.owner.token, this.owner.name, id, ['COMPLETED', 'ERROR', 'CANCELED'], 300_000);
    expect((await settled(this.earlyJob)).status.stage).toBe('COMPLETED');
    expect(await jobLog(this.earlyJob)).toEqual(this.earlyLines);
    // A job whose jobs service is replaced may be settled ERROR saying why, as after a crash
    // (decision 0611), or COMPLETED (ended first, or adopted by the new replica). Never left running.
    const later = await settled(this.laterJob);
    if (String(later.status.stage) !== 'COMPLETED')
      expect(later.status).toMatchObject({
        stage: 'ERROR',
        message: expect.stringContaining('the jobs service stopped while this job ran'),
      });
    expect((await jobLog(this.laterJob))[0]).toBe('started');
    console.log(`the job across the jobs service's replacement: ${JSON.stringify(later.status)}`);

    // Every mention is in the inbox; every repository created is in the audit log (late at most: decision 0206).
    const inbox = await eventually(
      () => http<{ count: { all: number } }>(baseUrl, 'GET', '/api/notifications', { token: this.inboxUser.token }),
      (r) => r.status === 200 && r.body.count.all >= ledger.mentions,
      300_000,
      1000,
    );
    expect(inbox.body.count.all).toBe(ledger.mentions);
    const audit = await eventually(
      () =>
        http<AuditRow[]>(baseUrl, 'GET', `/api/organizations/${this.org}/audit-log/export`, {
          token: this.owner.token,
        }),
      (r) => r.status === 200 && [...ledger.auditRepos].every((name) => JSON.stringify(r.body).includes(`"${name}"`)),
      300_000,
      2000,
    );
    const text = JSON.stringify(audit.body);
    expect([...ledger.auditRepos].filter((name) => !text.includes(`"${name}"`))).toEqual([]);

    // The webhook made by the previous release still delivers a new event.
    const last = await http(baseUrl, 'POST', '/admin/events', {
      token: this.hub.adminToken,
      body: { subject: 'hub.events.repo.update', payload: repoEvent(this.repo, 'repo.content', 'after-upgrade') },
    });
    expect(last.status).toBe(202);
    await eventually(
      () => this.receiver.deliveries(this.path),
      (d) => d.some((x) => x.action === 'after-upgrade'),
      120_000,
      500,
    );
    return report;
  }
}
