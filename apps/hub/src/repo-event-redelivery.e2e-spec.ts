import { RepoEventsConsumer } from '@hub/service-organizations';
import { describeWithInfra, http, makeOrg, makeUser } from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'redelivery-admin-token-for-tests';

interface AuditEvent { type: string; data?: { repo?: string } }

/**
 * A repo event delivered again (the consumer crashed after its commit, before the ack, so the bus
 * hands the same message, with the same id, to the next handler) records its audit event once.
 */
describeWithInfra('repo events redelivered', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub({ HUB_ADMIN_TOKEN: ADMIN }, { listen: true });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('records one audit event per event id, whatever the number of deliveries', async () => {
    const target = { baseUrl: t.baseUrl, adminToken: ADMIN };
    const admin = await makeUser(target);
    const org = await makeOrg(target, 'enterprise', [admin.name]);
    const consumer = t.hub.app.get(RepoEventsConsumer);
    const event = (name: string) => ({ event: { action: 'create', scope: 'repo' }, repo: { type: 'model' as const, name: `${org.name}/${name}`, private: false } });
    const ctx = { requestId: 'redelivery-test' };
    // The first delivery, then the redelivery: same message id. Two at once too (two consumers racing).
    await consumer.apply(event('once'), ctx, 'repo-event-1');
    await consumer.apply(event('once'), ctx, 'repo-event-1');
    await Promise.allSettled([consumer.apply(event('raced'), ctx, 'repo-event-2'), consumer.apply(event('raced'), ctx, 'repo-event-2')]);
    // Another event about the same repository is another fact: recorded.
    await consumer.apply(event('once'), ctx, 'repo-event-3');

    const repoEvents = async (): Promise<string[]> => {
      const res = await http<AuditEvent[]>(t.baseUrl, 'GET', `/api/organizations/${org.name}/audit-log/export?q=type:repo.create`, { token: admin.token });
      return res.body.map((e) => e.data?.repo ?? '').sort();
    };
    const until = Date.now() + 10_000;
    let seen = await repoEvents();
    while (seen.length < 3 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await repoEvents();
    }
    await new Promise((r) => setTimeout(r, 500)); // a duplicate would arrive by now
    expect(await repoEvents()).toEqual([`${org.name}/once`, `${org.name}/once`, `${org.name}/raced`]);
  });
});
