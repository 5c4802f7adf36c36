import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  consoleSignIn,
  eventually,
  freePort,
  http,
  makeOrg,
  makeToken,
  makeUser,
  readSse,
  repoEvent,
  uniqueName,
  waitForStage,
  withCookie,
} from '@hub/testing';
import { ComposeStack, COMPOSE_FILE, docker, ENGINE_FILE, IMAGE_TAG } from '../stack/compose-stack';
import { ReceiverContainer } from '../stack/receiver';
import { RetryingClient, Traffic, type TrafficLedger } from './traffic';

/** The previous release's checkout (`git worktree`, made by docker/local/test-upgrade.sh) and its images' tag. */
const PREV_DIR = process.env['HUB_UPGRADE_PREV_DIR'] ?? '';
const PREV_TAG = process.env['HUB_UPGRADE_PREV_TAG'] ?? '';
const LOG_FILE = join(tmpdir(), 'hub-upgrade-stack.log');
/** The order of the rollout: what others call first, the gateway (the edge) last. */
const SERVICES = ['credentials', 'organizations', 'notifications', 'webhooks', 'jobs', 'gateway'];
/**
 * Services stopped before their migration runs, because the previous release's code cannot run on
 * the migrated schema (decision 0207): the partitioned audit log (after 0.1.0) refuses 0.1.0's
 * `ON CONFLICT (id)` inserts, and a failing audit event is dead-lettered after 5 tries (~15 s).
 * Stopped, it consumes nothing: the events wait on the bus for the new replica.
 */
const STOPPED_FOR_MIGRATION = ['organizations'];
const migrate = (svc: string): string => `migrate-${svc}`;

interface AuditRow {
  type: string;
  data?: unknown;
  message: string;
}

/**
 * The previous release (PREV_DIR's compose files, its images) brought up on Compose and driven
 * through the gateway, then upgraded to this tree one service at a time (`up -d --no-deps`) while
 * traffic flows: webhook deliveries to a receiver container, tokens made and used, notifications,
 * audit events, jobs running across the jobs service's replacement, a console session. Issue 38
 * item 2; the rule it tests is decision 0203's expand/contract (decision 0207 for this test).
 */
describe('upgrade from the previous release on Compose, under traffic', () => {
  let stack: ComposeStack;
  let receiver: ReceiverContainer;
  let client: RetryingClient;
  const hub = (): { baseUrl: string; adminToken: string } => ({ baseUrl: stack.baseUrl, adminToken: stack.adminToken });
  const steps: { step: string; seconds: number }[] = [];
  const timed = async <T>(step: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    const out = await fn();
    steps.push({ step, seconds: Math.round((Date.now() - t0) / 100) / 10 });
    return out;
  };

  beforeAll(async () => {
    if (!PREV_DIR || !PREV_TAG)
      throw new Error('HUB_UPGRADE_PREV_DIR and HUB_UPGRADE_PREV_TAG: run through npm run test:upgrade');
    stack = new ComposeStack(await freePort(), await freePort());
    stack.files = [join(PREV_DIR, 'docker/docker-compose.yml'), join(PREV_DIR, 'docker/docker-compose.engine.yml')];
    stack.imageTag = PREV_TAG;
    await stack.down();
    await timed('previous release up', async () => {
      await stack.compose('up', '-d');
      await stack.waitReady();
    });
    receiver = await ReceiverContainer.start(stack.network);
    client = new RetryingClient(stack.baseUrl);
  }, 900_000);

  afterAll(async () => {
    if (stack) writeFileSync(LOG_FILE, await stack.logs(400));
    console.log(`compose logs: ${LOG_FILE}\nsteps: ${JSON.stringify(steps)}`);
    if (process.env['HUB_DEPLOY_KEEP'] === '1') return;
    await ReceiverContainer.stop();
    await stack?.down();
  }, 300_000);

  it('upgrades every service to this tree while traffic flows, and nothing is lost', async () => {
    // What exists before the upgrade, made by the previous release.
    const owner = await makeUser(hub(), 'write', 'upg');
    const inboxUser = await makeUser(hub(), 'write', 'inbox');
    const oldTokens = [owner.token, (await makeToken(hub(), owner.name, 'read')).token, inboxUser.token];
    const org = await makeOrg(hub(), 'enterprise', [owner.name], 'upgorg');
    const repo = `${owner.name}/${uniqueName('repo')}`;
    const path = `/${uniqueName('upgrade')}`;
    const hook = await http<{ webhook: { id: string } }>(stack.baseUrl, 'POST', '/api/settings/webhooks', {
      token: owner.token,
      body: { watched: [{ type: 'model', name: repo }], domains: ['repo'], url: receiver.url(path), secret: 's3cret' },
    });
    expect(hook.status).toBe(200);
    const session = await consoleSignIn(stack.baseUrl, owner.token);
    const startJob = async (script: string): Promise<string> => {
      const res = await http<{ id: string }>(stack.baseUrl, 'POST', `/api/jobs/${owner.name}`, {
        token: owner.token,
        body: {
          dockerImage: 'alpine:3',
          flavor: 'cpu-basic',
          command: ['sh', '-c', script],
        },
      });
      expect(res.status).toBe(200);
      await waitForStage(hub(), owner.token, owner.name, res.body.id, ['RUNNING'], 180_000);
      return res.body.id;
    };
    // Writes a line every 2 s for 2 min: across NATS's restart and the migrations, its log written by
    // the previous release's jobs service on the migrated schema.
    const earlyLines = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`);
    const earlyJob = await startJob('for i in $(seq 1 60); do echo line $i; sleep 2; done');

    const traffic = new Traffic(client, { hub: hub(), owner, repo, inboxUser, org: org.name, oldTokens });
    traffic.start();
    // Progress, not time: each step waits until more events reached the receiver than before it.
    const delivered = async (): Promise<number> => new Set((await receiver.deliveries(path)).map((d) => d.action)).size;
    const moreDelivered = async (n: number): Promise<void> => {
      const before = await delivered();
      await eventually(delivered, (d) => d >= before + n, 300_000, 500);
    };
    let ledger: TrafficLedger | undefined;
    let laterJob = '';
    try {
      await moreDelivered(30);
      // This tree's compose files and images from here on.
      stack.files = [COMPOSE_FILE, ENGINE_FILE];
      stack.imageTag = IMAGE_TAG;
      // NATS first: this release's permissions (a superset of the previous release's) on the same JetStream volume.
      await timed('nats', async () => {
        await stack.compose('up', '-d', '--no-deps', 'nats');
        await stack.waitHealthy('nats');
      });
      await moreDelivered(20);
      // Migrations before any new code; the previous release's services keep running on the new schema.
      for (const svc of SERVICES.filter((x) => x !== 'gateway' && !STOPPED_FOR_MIGRATION.includes(x)))
        await timed(migrate(svc), () => stack.compose('run', '--rm', '--no-deps', migrate(svc)));
      await moreDelivered(20);
      for (const svc of SERVICES) {
        if (svc === 'jobs') {
          // The early job's part ends with the migrations: it finishes on the previous release's jobs
          // service before that is replaced (on a quick machine the steps reached here within its 2 min).
          await waitForStage(hub(), owner.token, owner.name, earlyJob, ['COMPLETED', 'ERROR', 'CANCELED'], 300_000);
          // Running when the jobs service is replaced.
          laterJob = await startJob('echo started; sleep 30; echo settled');
        }
        await timed(svc, async () => {
          if (STOPPED_FOR_MIGRATION.includes(svc)) {
            await stack.compose('stop', svc);
            await stack.compose('run', '--rm', '--no-deps', migrate(svc));
          }
          await stack.compose('up', '-d', '--no-deps', svc);
          await stack.waitHealthy(svc);
        });
        await moreDelivered(20);
      }
    } finally {
      ledger = await traffic.stop();
    }
    const images = await Promise.all(
      SERVICES.map(async (svc) => {
        const [id] = await stack.containers(svc);
        return id ? docker('inspect', '-f', '{{.Config.Image}}', id) : `${svc}: none`;
      }),
    );
    expect(images).toEqual(SERVICES.map((svc) => `hub-services/${svc}:${IMAGE_TAG}`));

    // Every accepted event reached the receiver (at least once).
    const got = await eventually(
      async () => new Set((await receiver.deliveries(path)).map((d) => d.action)),
      (seen) => [...ledger.accepted].every((a) => seen.has(a)),
      600_000,
      1000,
    );
    const missing = [...ledger.accepted].filter((a) => !got.has(a));
    const report = {
      accepted: ledger.accepted.size,
      delivered: got.size,
      missing: missing.length,
      mentions: ledger.mentions,
      auditRepos: ledger.auditRepos.size,
      tokensMade: ledger.tokensMade,
      oldTokenCalls: ledger.oldTokenCalls,
      retried: client.retried,
      longestRetryMs: client.longestRetryMs,
      failures: ledger.failures.length,
      steps,
    };
    console.log(`upgrade under traffic: ${JSON.stringify(report)}`);
    expect(ledger.failures).toEqual([]);
    expect(missing.slice(0, 20)).toEqual([]);
    expect(ledger.accepted.size).toBeGreaterThan(100);
    expect(ledger.tokensMade).toBeGreaterThan(0);
    expect(ledger.oldTokenCalls).toBeGreaterThan(0);

    // Tokens made before still work; the console session made before is still signed in, and a new sign-in works.
    for (const token of oldTokens)
      expect((await http(stack.baseUrl, 'GET', '/api/whoami-v2', { token })).status).toBe(200);
    expect(await withCookie(stack.baseUrl, 'GET', '/api/console/session', session)).toMatchObject({
      status: 200,
      body: { user: { name: owner.name } },
    });
    const again = await consoleSignIn(stack.baseUrl, inboxUser.token);
    expect(again.body.user?.name).toBe(inboxUser.name);
    const page = await fetch(`${stack.baseUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);

    // The jobs that ran across the upgrade settle, with their output.
    const jobLog = async (id: string): Promise<string[]> =>
      (await readSse(`${stack.baseUrl}/api/jobs/${owner.name}/${id}/logs`, owner.token)).data.map(
        (d) => (JSON.parse(d) as { data: string }).data,
      );
    const early = await waitForStage(
      hub(),
      owner.token,
      owner.name,
      earlyJob,
      ['COMPLETED', 'ERROR', 'CANCELED'],
      300_000,
    );
    expect(early.status.stage).toBe('COMPLETED');
    expect(await jobLog(earlyJob)).toEqual(earlyLines);
    // A job whose jobs container is replaced is not adopted by the new one: it is settled ERROR
    // saying why, as after a crash (decision 0611), or COMPLETED when it ended first. Never left running.
    const later = await waitForStage(
      hub(),
      owner.token,
      owner.name,
      laterJob,
      ['COMPLETED', 'ERROR', 'CANCELED'],
      300_000,
    );
    if (String(later.status.stage) !== 'COMPLETED')
      expect(later.status).toMatchObject({
        stage: 'ERROR',
        message: expect.stringContaining('the jobs service stopped while this job ran'),
      });
    expect((await jobLog(laterJob))[0]).toBe('started');
    console.log(`the job across the jobs service's replacement: ${JSON.stringify(later.status)}`);

    // Every mention is in the inbox; every repository created is in the audit log (late at most: decision 0206).
    const inbox = await eventually(
      () => http<{ count: { all: number } }>(stack.baseUrl, 'GET', '/api/notifications', { token: inboxUser.token }),
      (r) => r.status === 200 && r.body.count.all >= ledger.mentions,
      300_000,
      1000,
    );
    expect(inbox.body.count.all).toBe(ledger.mentions);
    const audit = await eventually(
      () =>
        http<AuditRow[]>(stack.baseUrl, 'GET', `/api/organizations/${org.name}/audit-log/export`, {
          token: owner.token,
        }),
      (r) => r.status === 200 && [...ledger.auditRepos].every((name) => JSON.stringify(r.body).includes(`"${name}"`)),
      300_000,
      2000,
    );
    const text = JSON.stringify(audit.body);
    expect([...ledger.auditRepos].filter((name) => !text.includes(`"${name}"`))).toEqual([]);

    // The webhook made by the previous release still delivers a new event.
    const last = await http(stack.baseUrl, 'POST', '/admin/events', {
      token: stack.adminToken,
      body: { subject: 'hub.events.repo.update', payload: repoEvent(repo, 'repo.content', 'after-upgrade') },
    });
    expect(last.status).toBe(202);
    await eventually(
      () => receiver.deliveries(path),
      (d) => d.some((x) => x.action === 'after-upgrade'),
      120_000,
      500,
    );
  }, 2_400_000);
});
