import { describeWithInfra, notificationsScenarios } from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'notifications-admin-token-for-tests';

/** Issue 9 in the all-in-one mode: the in-process durable bus feeds the inbox. */
describeWithInfra('all-in-one hub: notifications', () => {
  let t: TestHub;
  let baseUrl = '';

  beforeAll(async () => {
    t = await startTestHub({ HUB_ADMIN_TOKEN: ADMIN }, { listen: true });
    baseUrl = t.baseUrl;
  });

  afterAll(async () => {
    await t?.close();
  });

  notificationsScenarios(() => ({ baseUrl, adminToken: ADMIN }));
});
