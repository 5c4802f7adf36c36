import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestDatabase,
  deliverThroughKillNine,
  describeWithInfra,
  freePort,
  type RunningProcess,
  startApp,
  startWebhookCapture,
  type TestDatabase,
  WEBHOOK_TEST_ENV,
  type WebhookCapture,
} from '@hub/testing';

const ADMIN = 'webhooks-kill-nine-admin-token';

/** The all-in-one hub as its own process (in-process durable bus on Postgres), killed with kill -9 mid-delivery. */
describeWithInfra('all-in-one hub: webhooks survive kill -9', () => {
  let db: TestDatabase;
  let capture: WebhookCapture;
  let hub: RunningProcess | undefined;
  let env: Record<string, string> = {};
  let baseUrl = '';

  const start = async (): Promise<void> => {
    hub = startApp('hub', env);
    await hub.waitForReady(`${baseUrl}/health/ready`, 60_000);
  };

  beforeAll(async () => {
    [db, capture] = await Promise.all([createTestDatabase(), startWebhookCapture()]);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    env = {
      DATABASE_URL: db.url,
      HUB_MIGRATE_ON_START: 'true',
      HUB_DATA_DIR: mkdtempSync(join(tmpdir(), 'hub-kill-')),
      HUB_ADMIN_TOKEN: ADMIN,
      HOST: '127.0.0.1',
      PORT: String(port),
      HUB_RATE_LIMIT_PER_MINUTE: '1000000',
      ...WEBHOOK_TEST_ENV,
      HUB_WEBHOOK_LEASE_MS: '3000',
      HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY: '100000',
      // The receiver holds its answers from the first quarter until the kill, which comes once all
      // 2,000 events are published: held attempts must outlast publishing, or they time out, count
      // as failures and suspend the webhook before the kill (publishing goes through an RPC now).
      HUB_WEBHOOK_TIMEOUT_MS: '60000',
    };
    await start();
  }, 90_000);

  afterAll(async () => {
    await hub?.stop();
    await capture?.close();
    await db?.drop();
  });

  it('kill -9 of the hub in the middle of 2,000 deliveries loses none once it is back', async () => {
    const ledger = await deliverThroughKillNine({
      baseUrl,
      adminToken: ADMIN,
      capture,
      killAfterPublishing: true,
      killMidway: async () => {
        await hub?.stop('SIGKILL');
        await start();
      },
    });
    expect(ledger).toMatchObject({ published: 2000, delivered: 2000, unstableIds: 0 });
    expect(ledger.deliveredAtKill).toBeLessThan(2000);
  }, 600_000);
});
