import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { BusStore } from './bus-store';

describeWithInfra('the all-in-one bus keeps events HUB_BUS_RETENTION_DAYS days', () => {
  let db: TestDatabase;
  let store: BusStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = await BusStore.open({ databaseUrl: db.url, retentionDays: 2 });
  });

  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it('prunes events older than the retention and keeps the rest', async () => {
    await store.append('hub.audit.org.create', 'old', '{}');
    await store.append('hub.audit.org.create', 'recent', '{}');
    await store.ds.query(`UPDATE bus.events SET published_at = now() - interval '3 days' WHERE msg_id = 'old'`);
    await store.ds.query(`UPDATE bus.events SET published_at = now() - interval '1 day' WHERE msg_id = 'recent'`);
    await store.prune();
    const rows: { msg_id: string }[] = await store.ds.query(`SELECT msg_id FROM bus.events ORDER BY seq`);
    expect(rows.map((r) => r.msg_id)).toEqual(['recent']);
  });

  it('stores a msgId once when it is appended twice at the same moment, and says which call stored it', async () => {
    const results = await Promise.all([
      store.append('hub.audit.org.create', 'twice', '{"n":1}'),
      store.append('hub.audit.org.create', 'twice', '{"n":2}'),
      store.append('hub.audit.org.create', undefined, '{"n":3}'),
      store.append('hub.audit.org.create', undefined, '{"n":4}'),
    ]);
    expect(results).toEqual([true, false, true, true]);
    const rows: { payload: string }[] = await store.ds.query(
      `SELECT payload FROM bus.events WHERE payload LIKE '{"n":%' ORDER BY seq`,
    );
    expect(rows.map((r) => r.payload)).toEqual(['{"n":1}', '{"n":3}', '{"n":4}']);
    expect(await store.append('hub.audit.org.create', 'twice', '{"n":5}')).toBe(false);
  });
});
