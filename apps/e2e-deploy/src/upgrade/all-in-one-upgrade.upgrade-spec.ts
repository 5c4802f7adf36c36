import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  eventually,
  freePort,
  http,
  makeOrg,
  makeUser,
  publishHubEvent,
  discussionEvent,
  repoEvent,
  startWebhookCapture,
  type TestUser,
  uniqueName,
  type WebhookCapture,
  waitForHttp,
  WORKSPACE_ROOT,
} from '@hub/testing';

const PREV_DIR = process.env['HUB_UPGRADE_PREV_DIR'] ?? '';

/** `npm start` in a checkout (tools/start.mjs: builds the hub when its sources changed, then runs it). */
class NpmStart {
  private out = '';
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;

  constructor(
    readonly tree: string,
    env: Record<string, string>,
  ) {
    this.child = spawn('npm', ['start'], {
      cwd: tree,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/root', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A process group of its own, as a terminal gives it: stop() sends Ctrl-C's SIGINT to the group.
      detached: true,
    });
    this.child.stdout?.on('data', (d: Buffer) => (this.out += d.toString()));
    this.child.stderr?.on('data', (d: Buffer) => (this.out += d.toString()));
    this.exited = new Promise((r) => this.child.once('exit', () => r()));
  }

  async ready(baseUrl: string, timeoutMs: number): Promise<void> {
    await waitForHttp(`${baseUrl}/health/ready`, timeoutMs, () => {
      if (this.child.exitCode !== null) throw new Error(`npm start in ${this.tree} exited:\n${this.out.slice(-4000)}`);
    }).catch((e: Error) => {
      throw new Error(`${e.message}\n${this.out.slice(-4000)}`);
    });
  }

  output(): string {
    return this.out;
  }

  /**
   * Ctrl-C, as an operator stops it: SIGINT to the whole group (npm, its shell, tools/start.mjs, the
   * hub, which stops its database). npm alone does not pass it on through its shell.
   */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null && this.child.pid)
      process.kill(-this.child.pid, 'SIGINT');
    await this.exited;
  }
}

/**
 * Issue 38 item 2, the all-in-one: `npm start` of the previous release makes a `./data` (embedded
 * PostgreSQL, in-process bus) and fills it; `npm start` of this tree on the same directory migrates
 * it at start and keeps everything: users and tokens, the webhook, its secret and its delivery log,
 * notifications, the audit log; and it goes on delivering.
 */
describe('the all-in-one hub: npm start of this tree on the data of the previous release', () => {
  let dataDir: string;
  let capture: WebhookCapture;
  let running: NpmStart | undefined;
  let baseUrl: string;
  let env: Record<string, string>;
  const adminToken = `upgrade-${uniqueName('admin')}`;
  const hub = (): { baseUrl: string; adminToken: string } => ({ baseUrl, adminToken });

  beforeAll(async () => {
    if (!PREV_DIR) throw new Error('HUB_UPGRADE_PREV_DIR: run through npm run test:upgrade');
    dataDir = mkdtempSync(join(tmpdir(), 'hub-upgrade-data-'));
    capture = await startWebhookCapture();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      HUB_DATA_DIR: dataDir,
      HUB_ADMIN_TOKEN: adminToken,
      HUB_SECRET_KEY: 'upgrade-test-secret-key-0123456789abcdef',
      HUB_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
      HUB_WEBHOOK_POLL_MS: '100',
    };
  });

  afterAll(async () => {
    await running?.stop();
    await capture?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps users, tokens, the webhook and its log, notifications and the audit log, and delivers again', async () => {
    // The previous release, in its own checkout (built by its own start when needed).
    running = new NpmStart(PREV_DIR, env);
    await running.ready(baseUrl, 900_000);
    const owner: TestUser = await makeUser(hub(), 'write', 'aio');
    const reader = await makeUser(hub(), 'read', 'aio');
    const org = await makeOrg(hub(), 'enterprise', [owner.name], 'aioorg');
    const repo = `${owner.name}/${uniqueName('repo')}`;
    const hook = await http<{ webhook: { id: string } }>(baseUrl, 'POST', '/api/settings/webhooks', {
      token: owner.token,
      body: { watched: [{ type: 'model', name: repo }], domains: ['repo'], url: capture.url('/aio'), secret: 'kept' },
    });
    expect(hook.status).toBe(200);
    await publishHubEvent(hub(), 'hub.events.repo.update', repoEvent(repo, 'repo.content', 'before'));
    await publishHubEvent(
      hub(),
      'hub.events.discussion.create',
      discussionEvent({ actor: owner, repo, mentions: [reader] }),
    );
    await capture.waitFor('/aio', 1, 60_000);
    const inboxBefore = await eventually(
      () => http<{ count: { all: number } }>(baseUrl, 'GET', '/api/notifications', { token: reader.token }),
      (r) => r.status === 200 && r.body.count.all === 1,
      60_000,
    );
    type LogRow = { id: string; deliveryId: string; status: number | null; payload: { event: { action: string } } };
    const logsOf = (): ReturnType<typeof http<LogRow[]>> =>
      http<LogRow[]>(baseUrl, 'GET', `/api/settings/webhooks/${hook.body.webhook.id}/logs`, { token: owner.token });
    const rowOf = (r: LogRow): unknown => [r.id, r.deliveryId, r.status, r.payload.event.action];
    const logBefore = await eventually(logsOf, (r) => r.status === 200 && r.body.length === 1, 60_000);
    expect(logBefore.body.map(rowOf)).toEqual([[expect.any(String), expect.any(String), 200, 'before']]);
    const auditOf = (): ReturnType<typeof http<{ type: string }[]>> =>
      http<{ type: string }[]>(baseUrl, 'GET', `/api/organizations/${org.name}/audit-log/export`, {
        token: owner.token,
      });
    const auditBefore = await eventually(auditOf, (r) => r.status === 200 && r.body.length >= 1, 60_000);
    await running.stop();

    // This tree on the same data directory: it migrates at start.
    running = new NpmStart(WORKSPACE_ROOT, env);
    await running.ready(baseUrl, 900_000);
    for (const u of [owner, reader])
      expect(await http(baseUrl, 'GET', '/api/whoami-v2', { token: u.token })).toMatchObject({
        status: 200,
        body: { name: u.name },
      });
    expect((await http(baseUrl, 'GET', '/api/notifications', { token: reader.token })).body).toEqual(inboxBefore.body);
    const logAfter = await logsOf();
    expect(logAfter.status).toBe(200);
    expect(logAfter.body.map(rowOf)).toEqual(logBefore.body.map(rowOf));
    expect((await auditOf()).body.map((e) => e.type)).toEqual(auditBefore.body.map((e) => e.type));

    // The webhook made before delivers a new event, signed with the secret it was given then.
    await publishHubEvent(hub(), 'hub.events.repo.update', repoEvent(repo, 'repo.content', 'after'));
    const got = await capture.waitFor('/aio', 2, 60_000);
    expect(got.map((d) => (d.json['event'] as { action: string }).action)).toEqual(['before', 'after']);
    expect(got.map((d) => d.headers['x-webhook-secret'])).toEqual(['kept', 'kept']);
  }, 2_400_000);
});
