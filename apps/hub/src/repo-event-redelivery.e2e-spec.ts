import { RepoEventIdsPruner, RepoEventsConsumer } from '@hub/organizations-service';
import { describeWithInfra, http, makeOrg, makeUser, queryDatabase } from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'redelivery-admin-token-for-tests';

interface AuditEvent {
  type: string;
  data?: { repo?: string };
}

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

  /** An Enterprise organization with its admin, and the hub's repo events consumer. */
  async function enterpriseAdmin() {
    const target = { baseUrl: t.baseUrl, adminToken: ADMIN };
    const admin = await makeUser(target);
    const org = await makeOrg(target, 'enterprise', [admin.name]);
    return { admin, org, consumer: t.hub.app.get(RepoEventsConsumer) };
  }

  it('records one audit event per event id, whatever the number of deliveries', async () => {
    const { admin, org, consumer } = await enterpriseAdmin();
    const event = (name: string) => ({
      event: { action: 'create', scope: 'repo' },
      repo: { type: 'model' as const, name: `${org.name}/${name}`, private: false },
    });
    const ctx = { requestId: 'redelivery-test' };
    // The first delivery, then the redelivery: same message id. Two at once too (two consumers racing).
    await consumer.apply(event('once'), ctx, 'repo-event-1');
    await consumer.apply(event('once'), ctx, 'repo-event-1');
    await Promise.allSettled([
      consumer.apply(event('raced'), ctx, 'repo-event-2'),
      consumer.apply(event('raced'), ctx, 'repo-event-2'),
    ]);
    // Another event about the same repository is another fact: recorded.
    await consumer.apply(event('once'), ctx, 'repo-event-3');

    const repoEvents = async (): Promise<string[]> => {
      const res = await http<AuditEvent[]>(
        t.baseUrl,
        'GET',
        `/api/organizations/${org.name}/audit-log/export?q=type:repo.create`,
        { token: admin.token },
      );
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

  it('applies a push (no audit record) once per event id: a redelivery leaves the storage it set', async () => {
    const { org, consumer } = await enterpriseAdmin();
    const push = (storage: number) => ({
      event: { action: 'update', scope: 'repo.content' },
      repo: { type: 'model' as const, name: `${org.name}/pushed`, private: false, storage },
    });
    const ctx = { requestId: 'push-test' };
    await consumer.apply(push(100), ctx, 'push-1');
    await consumer.apply(push(999), ctx, 'push-1'); // the same message again: nothing changes
    const storage = async (): Promise<string[]> =>
      (
        await queryDatabase<{ storage: string }>(
          t.db.url,
          `SELECT storage::text FROM organizations.repositories WHERE name = $1`,
          [`${org.name}/pushed`],
        )
      ).map((r) => r.storage);
    expect(await storage()).toEqual(['100']);
    await consumer.apply(push(200), ctx, 'push-2');
    expect(await storage()).toEqual(['200']);
    const applied = await queryDatabase<{ msg_id: string }>(
      t.db.url,
      `SELECT msg_id FROM organizations.repo_events_applied WHERE msg_id LIKE 'push-%' ORDER BY msg_id`,
    );
    expect(applied.map((r) => r.msg_id)).toEqual(['push-1', 'push-2']);
  });

  it('forgets event ids older than the bus retention (HUB_BUS_RETENTION_DAYS), and a fresh id still applies once', async () => {
    const { admin, org, consumer } = await enterpriseAdmin();
    const event = (name: string) => ({
      event: { action: 'create', scope: 'repo' },
      repo: { type: 'model' as const, name: `${org.name}/${name}`, private: false },
    });
    const ctx = { requestId: 'prune-test' };
    await consumer.apply(event('old'), ctx, 'prune-old');
    await consumer.apply(event('fresh'), ctx, 'prune-fresh');
    // Applied eight days ago: the default retention (7 days) is past; a day short of it is not.
    await queryDatabase(
      t.db.url,
      `UPDATE organizations.repo_events_applied SET applied_at = now() - interval '8 days' WHERE msg_id = 'prune-old'`,
    );
    await queryDatabase(
      t.db.url,
      `UPDATE organizations.repo_events_applied SET applied_at = now() - interval '6 days' WHERE msg_id = 'prune-fresh'`,
    );

    expect(await t.hub.app.get(RepoEventIdsPruner).prune()).toBeGreaterThanOrEqual(1);

    const kept = await queryDatabase<{ msg_id: string }>(
      t.db.url,
      `SELECT msg_id FROM organizations.repo_events_applied WHERE msg_id LIKE 'prune-%' ORDER BY msg_id`,
    );
    expect(kept.map((r) => r.msg_id)).toEqual(['prune-fresh']);
    await consumer.apply(event('fresh'), ctx, 'prune-fresh'); // a redelivery within the retention: nothing new
    const repos = async (): Promise<string[]> => {
      const res = await http<AuditEvent[]>(
        t.baseUrl,
        'GET',
        `/api/organizations/${org.name}/audit-log/export?q=type:repo.create`,
        { token: admin.token },
      );
      return res.body.map((e) => e.data?.repo ?? '').sort();
    };
    const until = Date.now() + 10_000;
    while ((await repos()).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500)); // a duplicate would arrive by now
    expect(await repos()).toEqual([`${org.name}/fresh`, `${org.name}/old`]);
  });
});
