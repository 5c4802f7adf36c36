import { describeWithInfra, startWebhookCapture, type WebhookCapture, WEBHOOK_TEST_ENV, webhooksScenarios } from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'webhooks-all-in-one-admin-token';

/** Webhooks in the all-in-one hub (in-process bus, Postgres), with a real receiver on loopback. */
describeWithInfra('all-in-one hub: webhooks', () => {
  let capture: WebhookCapture;
  let t: TestHub;

  beforeAll(async () => {
    capture = await startWebhookCapture();
    t = await startTestHub({ HUB_ADMIN_TOKEN: ADMIN, ...WEBHOOK_TEST_ENV, LOG_LEVEL: process.env['WH_LOG'] ?? 'fatal' }, { listen: true });
  });

  afterAll(async () => {
    await t?.close();
    await capture?.close();
  });

  webhooksScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN, capture, databaseUrl: t.db.url }));
});
