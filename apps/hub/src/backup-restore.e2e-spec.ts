import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScheduledJob, getScheduledJob, runJob } from '@huggingface/hub';
import { Webhook } from 'standardwebhooks';
import {
  createTestDatabase,
  describeWithInfra,
  discussionEvent,
  freePort,
  http,
  makeOrg,
  makeUser,
  publishHubEvent,
  queryDatabase,
  repoEvent,
  type RunningProcess,
  startApp,
  startWebhookCapture,
  type TestDatabase,
  type TestUser,
  uniqueName,
  waitForStage,
  WEBHOOK_TEST_ENV,
  type WebhookCapture,
  WORKSPACE_ROOT,
} from '@hub/testing';

const ADMIN = 'backup-restore-admin-token';
const SECRET = 'backup-restore-webhook-secret';
const EVENTS = 60;
/** The receiver answers this many deliveries, then holds every answer: deliveries are in flight at the backup. */
const ANSWERED = 20;

type Body = Record<string, unknown>;

function hubctl(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [join(WORKSPACE_ROOT, 'tools/hubctl/hubctl.mjs'), ...args], {
    cwd: WORKSPACE_ROOT,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((r) => child.once('close', (code) => r({ code, out, err })));
}

const eventIdOf = (payload: string): string => String(((JSON.parse(payload) as Body)['event'] as Body)['action']);

/**
 * Issue 38 item 3 (decision 0204): an all-in-one hub on PostgreSQL backed up with `hubctl backup`
 * while it delivers, the hub then lost (kill -9), the backup restored with `hubctl restore` into a
 * new data directory (the embedded PostgreSQL) and into an empty database, and a hub started on the
 * restored data directory with the same secret key.
 */
describeWithInfra('hubctl backup and restore', () => {
  let source: TestDatabase;
  let copy: TestDatabase;
  let capture: WebhookCapture;
  const hubs: RunningProcess[] = [];
  const dirs = ['hub-backup-a-', 'hub-backup-', 'hub-backup-jobs-'].map((p) => mkdtempSync(join(tmpdir(), p)));
  const restoredDir = join(dirs[1], 'data');
  const file = join(dirs[1], 'hub.dump');

  const start = async (env: Record<string, string>): Promise<string> => {
    const port = await freePort();
    const hub = startApp('hub', {
      HUB_ADMIN_TOKEN: ADMIN,
      HOST: '127.0.0.1',
      PORT: String(port),
      HUB_RATE_LIMIT_PER_MINUTE: '1000000',
      ...WEBHOOK_TEST_ENV,
      HUB_SECRET_KEY: 'backup-restore-secret-key',
      HUB_WEBHOOK_LEASE_MS: '3000',
      // Held answers must not time out into failures (and a suspension) before the kill.
      HUB_WEBHOOK_TIMEOUT_MS: '60000',
      HUB_JOBS_ENGINE: 'host',
      HUB_JOBS_WORK_DIR: dirs[2],
      ...env,
    });
    hubs.push(hub);
    await hub.waitForReady(`http://127.0.0.1:${port}/health/ready`, 120_000);
    return `http://127.0.0.1:${port}`;
  };

  beforeAll(async () => {
    [source, copy, capture] = await Promise.all([createTestDatabase(), createTestDatabase(), startWebhookCapture()]);
  });

  afterAll(async () => {
    await Promise.all(hubs.map((h) => h.stop()));
    await capture?.close();
    await Promise.all([source?.drop(), copy?.drop()]);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('backs up a delivering hub; the restored hub has its users, tokens, webhooks, logs, audit, notifications and jobs, and delivers what was pending once', async () => {
    // --- the hub to back up, with something of everything ---
    const a = {
      baseUrl: await start({ DATABASE_URL: source.url, HUB_MIGRATE_ON_START: 'true', HUB_DATA_DIR: dirs[0] }),
      adminToken: ADMIN,
    };
    const [alice, bob] = [await makeUser(a, 'write', 'alice'), await makeUser(a, 'write', 'bob')];
    const org = await makeOrg(a, 'team', [alice.name]);
    const auth = (u: TestUser, baseUrl: string) => ({ accessToken: u.token, hubUrl: baseUrl, namespace: u.name });
    const job = await runJob({
      ...auth(alice, a.baseUrl),
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      command: ['echo', 'hi'],
    });
    await waitForStage(a, alice.token, alice.name, job.id, ['COMPLETED'], 60_000);
    const schedule = await createScheduledJob({
      ...auth(alice, a.baseUrl),
      schedule: '0 0 1 1 *',
      jobSpec: { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['echo', 'new year'] },
    });
    await publishHubEvent(
      a,
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo: `${alice.name}/m`, mentions: [bob] }),
    );
    const inbox = async (baseUrl: string) =>
      (await http<{ notifications: Body[] }>(baseUrl, 'GET', '/api/notifications', { token: bob.token })).body
        .notifications;
    while ((await inbox(a.baseUrl)).length === 0) await new Promise((r) => setTimeout(r, 100));
    const notificationsBefore = await inbox(a.baseUrl);

    const repo = `${alice.name}/${uniqueName('bulk')}`;
    const path = `/${uniqueName('hook')}`;
    let release = (): void => undefined;
    const held = new Promise<void>((r) => (release = r));
    let holding = true;
    capture.on(path, async (n) => {
      if (holding && n > ANSWERED) await held;
      return { status: 200, body: '{}' };
    });
    const created = await http<{ webhook: { id: string } }>(a.baseUrl, 'POST', '/api/settings/webhooks', {
      token: alice.token,
      body: { watched: [{ type: 'model', name: repo }], domains: ['repo'], url: capture.url(path), secret: SECRET },
    });
    expect(created.status).toBe(200);
    const hookId = created.body.webhook.id;
    await Promise.all(
      Array.from({ length: EVENTS }, (_, i) =>
        publishHubEvent(a, 'hub.events.repo.update', repoEvent(repo, 'repo.content', `e${i}`)),
      ),
    );
    await capture.waitFor(path, ANSWERED + 1, 60_000);
    const auditOf = async (baseUrl: string) =>
      (await http<Body[]>(baseUrl, 'GET', `/api/organizations/${org.name}/audit-log/export`, { token: alice.token }))
        .body;
    const auditBefore = await auditOf(a.baseUrl);

    // --- backup while deliveries are in flight, then the hub is lost ---
    const backup = await hubctl(['backup', file], { DATABASE_URL: source.url });
    expect({ code: backup.code, err: backup.err }).toEqual({ code: 0, err: expect.stringContaining('HUB_SECRET_KEY') });
    expect(backup.out).toMatch(/^Backed up .* to .*hub\.dump \(.*custom format\)/);
    await hubs[0].stop('SIGKILL');
    const beforeRestore = capture.at(path).length;
    holding = false;
    release();

    // --- restore into an empty database (to read what the backup holds) and into a new data directory ---
    expect(await hubctl(['restore', file], { DATABASE_URL: copy.url })).toMatchObject({
      code: 0,
      out: expect.stringContaining('Restored'),
    });
    const refused = await hubctl(['restore', file], { DATABASE_URL: copy.url });
    expect({ code: refused.code, err: refused.err }).toEqual({ code: 1, err: expect.stringContaining('is not empty') });
    const rows = await queryDatabase<{ payload: string; state: string }>(
      copy.url,
      'SELECT payload, state FROM webhooks.deliveries WHERE webhook_id = $1',
      [hookId],
    );
    const deliveredInBackup = new Set(rows.filter((r) => r.state === 'delivered').map((r) => eventIdOf(r.payload)));
    expect(deliveredInBackup.size).toBeGreaterThanOrEqual(1);
    expect(deliveredInBackup.size).toBeLessThan(EVENTS);
    const restored = await hubctl(['restore', file], { HUB_DATA_DIR: restoredDir });
    expect({ code: restored.code, out: restored.out }).toEqual({ code: 0, out: expect.stringContaining(restoredDir) });

    // --- a hub on the restored data directory (embedded PostgreSQL), with the same secret key ---
    const b = { baseUrl: await start({ HUB_DATA_DIR: restoredDir }), adminToken: ADMIN };
    const whoami = await http<{ name: string }>(b.baseUrl, 'GET', '/api/whoami-v2', { token: alice.token });
    expect({ status: whoami.status, name: whoami.body.name }).toEqual({ status: 200, name: alice.name });
    expect((await inbox(b.baseUrl)).map((n) => n['id'])).toEqual(notificationsBefore.map((n) => n['id']));
    expect(auditBefore.length).toBeGreaterThan(0);
    expect(await auditOf(b.baseUrl)).toEqual(expect.arrayContaining(auditBefore));
    expect((await waitForStage(b, alice.token, alice.name, job.id, ['COMPLETED'])).status.stage).toBe('COMPLETED');
    expect(await getScheduledJob({ ...auth(alice, b.baseUrl), jobId: schedule.id })).toMatchObject({
      schedule: '0 0 1 1 *',
    });

    // Every event the backup did not record as delivered reaches the receiver from the restored hub
    // exactly once, signed with the restored secret; none the backup recorded as delivered comes again.
    const expected = Array.from({ length: EVENTS }, (_, i) => `e${i}`).filter((id) => !deliveredInBackup.has(id));
    const fromRestored = (): string[] =>
      capture
        .at(path)
        .slice(beforeRestore)
        .map((d) => eventIdOf(d.body));
    for (
      const deadline = Date.now() + 120_000;
      new Set(fromRestored()).size < expected.length && Date.now() < deadline;
    )
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1500)); // a second delivery of any of them would show up now
    expect(fromRestored().sort()).toEqual(expected.sort());
    const everyId = new Set(capture.at(path).map((d) => eventIdOf(d.body)));
    expect(everyId.size).toBe(EVENTS);
    for (const d of capture.at(path).slice(beforeRestore))
      expect(() =>
        new Webhook(SECRET, { format: 'raw' }).verify(d.body, {
          'webhook-id': String(d.headers['webhook-id']),
          'webhook-timestamp': String(d.headers['webhook-timestamp']),
          'webhook-signature': String(d.headers['webhook-signature']),
        }),
      ).not.toThrow();
    const logs = await http<Body[]>(b.baseUrl, 'GET', `/api/settings/webhooks/${hookId}/logs?limit=100`, {
      token: alice.token,
    });
    expect(logs.body.length).toBeGreaterThanOrEqual(deliveredInBackup.size + expected.length);
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('PGDMP'); // pg_dump's custom format
  }, 420_000);
});
