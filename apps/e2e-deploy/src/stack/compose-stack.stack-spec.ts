import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort, http, makeUser, readSse, repoEvent, uniqueName, waitForStage } from '@hub/testing';
import { runHubctl } from '../support/hubctl-runner';
import { ComposeStack } from './compose-stack';
import { deliverThroughChaos } from './chaos';
import { ReceiverContainer } from './receiver';

const LOG_FILE = join(tmpdir(), 'hub-deploy-stack.log');

interface MailSummary {
  ID: string;
  To: { Address: string }[];
  Subject: string;
}

/**
 * docker/docker-compose.yml brought up for real with Compose v1 (Debian's docker-compose 1.29) or,
 * with HUB_COMPOSE naming it, Compose v2 (test:deploy runs both), the
 * images `npm run test:deploy` built, and local stand-ins of Postgres, NATS and Mailpit; driven
 * through the gateway's published port as a user would (decision 0202).
 */
describe('the compose stack, for real', () => {
  let stack: ComposeStack;
  let receiver: ReceiverContainer;
  const hub = (): { baseUrl: string; adminToken: string } => ({ baseUrl: stack.baseUrl, adminToken: stack.adminToken });
  const mails = async (to: string): Promise<MailSummary[]> => {
    const res = await fetch(`http://127.0.0.1:${stack.mailPort}/api/v1/messages`);
    const body = (await res.json()) as { messages: MailSummary[] };
    return body.messages.filter((m) => m.To.some((a) => a.Address === to));
  };

  beforeAll(async () => {
    stack = new ComposeStack(await freePort(), await freePort());
    await stack.down();
    const started = Date.now();
    // Compose (v1 and v2) starts each service once what it depends on is healthy or completed.
    await stack.compose('up', '-d');
    await stack.waitReady();
    console.log(`compose stack up and ready in ${Math.round((Date.now() - started) / 1000)} s`);
    receiver = await ReceiverContainer.start(stack.network);
  }, 900_000);

  afterAll(async () => {
    // The stack's own logs, for a failing run's diagnosis (CI keeps /tmp).
    if (stack) writeFileSync(LOG_FILE, await stack.logs(400));
    console.log(`compose logs: ${LOG_FILE}`);
    if (process.env['HUB_DEPLOY_KEEP'] === '1') return;
    await ReceiverContainer.stop();
    await stack?.down();
  }, 300_000);

  it('the two-command smoke: hubctl creates a user and a token, and whoami answers with that user', async () => {
    const env = { HUB_URL: stack.baseUrl, HUB_ADMIN_TOKEN: stack.adminToken };
    const name = uniqueName('smoke');
    const created = await runHubctl(['users', 'create', name, '--email', `${name}@example.com`], env);
    expect(created).toMatchObject({ code: 0, stdout: expect.stringMatching(new RegExp(`^Created user ${name} `)) });
    const token = await runHubctl(['tokens', 'create', name, '--role', 'write'], env);
    expect(token.stdout).toMatch(/^hf_[A-Za-z0-9]{34}\n$/);
    const whoami = await http(stack.baseUrl, 'GET', '/api/whoami-v2', { token: token.stdout.trim() });
    expect(whoami).toMatchObject({ status: 200, body: { name, type: 'user' } });
  });

  it('delivers a webhook to a receiver container on the compose network', async () => {
    const user = await makeUser(hub(), 'write', 'hook');
    const repo = `${user.name}/${uniqueName('repo')}`;
    const path = `/${uniqueName('one')}`;
    const created = await http(stack.baseUrl, 'POST', '/api/settings/webhooks', {
      token: user.token,
      body: { watched: [{ type: 'model', name: repo }], domains: ['repo'], url: receiver.url(path), secret: 's3cret' },
    });
    expect(created.status).toBe(200);
    const published = await http(stack.baseUrl, 'POST', '/admin/events', {
      token: stack.adminToken,
      body: { subject: 'hub.events.repo.update', payload: repoEvent(repo, 'repo.content', 'first') },
    });
    expect(published.status).toBeLessThan(300);
    const got = await eventually(
      () => receiver.deliveries(path),
      (d) => d.length > 0,
      120_000,
      500,
    );
    expect(got).toEqual([{ id: expect.stringMatching(/.+/), action: 'first', scope: 'repo.content' }]);
  });

  it('runs a job in a container of its image through the machine engine, shows its output, and mails its end through the mail catcher', async () => {
    const user = await makeUser(hub(), 'write', 'job');
    const res = await http<{ id: string }>(stack.baseUrl, 'POST', `/api/jobs/${user.name}`, {
      token: user.token,
      body: {
        dockerImage: 'alpine:3',
        flavor: 'cpu-basic',
        command: ['sh', '-c', 'echo hello-from-compose; cat /etc/hostname'],
      },
    });
    expect(res.status).toBe(200);
    const done = await waitForStage(hub(), user.token, user.name, res.body.id, ['COMPLETED', 'ERROR'], 180_000);
    expect(done.status).toMatchObject({ stage: 'COMPLETED' });
    const logs = await readSse(`${stack.baseUrl}/api/jobs/${user.name}/${res.body.id}/logs`, user.token);
    // It ran in a container of its own (docker-compose.engine.yml: the machine's engine), not in the
    // jobs service's: its host name is another container's short id.
    const [jobsContainer] = await stack.containers('jobs');
    const lines = logs.data.map((d) => (JSON.parse(d) as { data: string }).data);
    expect(lines).toEqual(['hello-from-compose', expect.stringMatching(/^[0-9a-f]{12}$/)]);
    expect(lines[1]).not.toBe(jobsContainer?.slice(0, 12));
    // notifications (job_status is on by default) → SMTP → the mail catcher.
    const got = await eventually(
      () => mails(`${user.name}@example.com`),
      (m) => m.length > 0,
      120_000,
      500,
    );
    expect(got.map((m) => m.Subject)).toEqual([`Job ${res.body.id} is COMPLETED`]);
  });

  it('mails a token revocation from the credentials container', async () => {
    const user = await makeUser(hub(), 'write', 'revoke');
    const res = await http(stack.baseUrl, 'POST', '/api/credentials/revoke', { body: { credentials: [user.token] } });
    expect(res.status).toBe(202);
    const got = await eventually(
      () => mails(`${user.name}@example.com`),
      (m) => m.length > 0,
      120_000,
      500,
    );
    expect(got[0]?.Subject).toMatch(/revoked/);
  });

  it('scales webhooks and notifications to two containers each (docker-compose up --scale)', async () => {
    await stack.compose('up', '-d', '--scale', 'webhooks=2', '--scale', 'notifications=2');
    await stack.waitHealthy('webhooks', 2);
    await stack.waitHealthy('notifications', 2);
    expect(await stack.containers('webhooks')).toHaveLength(2);
    expect(await stack.containers('notifications')).toHaveLength(2);
    await stack.waitReady();
  }, 600_000);

  it('delivers every accepted event of 1,000 through kill -9 of a webhooks container and restarts of NATS and Postgres', async () => {
    const ledger = await deliverThroughChaos(stack, receiver, hub(), 1000);
    console.log(`chaos run: ${JSON.stringify({ ...ledger, missing: ledger.missing.slice(0, 20) })}`);
    expect(ledger.steps).toEqual(['kill -9 webhooks', 'restart nats', 'restart postgres']);
    expect(ledger.accepted).toBeGreaterThanOrEqual(1000);
    expect(ledger.missing).toEqual([]);
    expect(ledger.unexpected).toEqual([]);
    expect(ledger.unstableIds).toBe(0);
    // The killed container came back by its restart policy: two webhooks containers run again.
    await stack.waitHealthy('webhooks', 2);
  }, 1_500_000);
});
