import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { BusStore } from './bus-store';

/**
 * On a Postgres with autovacuum off (this machine's CI cluster) the all-in-one bus vacuums its
 * tables itself; with autovacuum on (the hub's embedded Postgres) it leaves that to autovacuum.
 */
describeWithInfra('the all-in-one bus tables are vacuumed by the hub where nothing else does', () => {
  let db: TestDatabase;
  let store: BusStore;
  let autovacuum = true;
  const consumer = { stream: 'VAC', durable: 'vac' };

  beforeAll(async () => {
    db = await createTestDatabase();
    store = await BusStore.open({ databaseUrl: db.url });
    await store.ensureConsumer(consumer, 'vac.>');
    const [row] = (await store.ds.query(`SELECT current_setting('autovacuum') AS on`)) as { on: string }[];
    autovacuum = row?.on === 'on';
  });

  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it("runs VACUUM (ANALYZE) itself: after a consumer's churn the planner knows the tables' sizes", async () => {
    for (let i = 0; i < 300; i++) await store.append('vac.x', `v-${i}`, '{}');
    // Read to the end and acknowledge everything, as the consumer does.
    for (;;) {
      const { claimed, read } = await store.fetchAndClaim(consumer, 'vac.>', 30_000, 100);
      if (claimed.length === 0 && read === 0) break;
      if (claimed.length > 0)
        await store.ack(
          consumer,
          claimed.map((m) => m.seq),
        );
    }
    const stats = async (): Promise<{ reltuples: number; pages: number }> => {
      const [row] = (await store.ds.query(
        `SELECT reltuples::float8 AS reltuples, relpages AS pages FROM pg_class WHERE oid = 'bus.events'::regclass`,
      )) as { reltuples: number; pages: number }[];
      return row as { reltuples: number; pages: number };
    };
    if (autovacuum) {
      expect(await store.vacuumIfNobodyDoes()).toEqual([]);
      return;
    }
    expect((await stats()).reltuples).toBeLessThan(300); // never analyzed: -1 (or 0)
    // Statistics reach pg_stat_user_tables within about a second (what the thresholds read), each
    // table's on its own: wait for both (CI once saw events' counts and not yet pending's).
    const deadline = Date.now() + 10_000;
    for (;;) {
      const seen = (await store.ds.query(
        `SELECT relname AS name, n_mod_since_analyze::int AS n FROM pg_stat_user_tables
          WHERE schemaname = 'bus' AND relname IN ('events', 'pending')`,
      )) as { name: string; n: number }[];
      const n = (name: string): number => seen.find((r) => r.name === name)?.n ?? 0;
      if ((n('events') >= 300 && n('pending') >= 300) || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await store.vacuumIfNobodyDoes()).toEqual(expect.arrayContaining(['bus.events', 'bus.pending']));
    expect((await stats()).reltuples).toBe(300);
    const [pending] = (await store.ds.query(`SELECT count(*)::int AS n FROM bus.pending`)) as { n: number }[];
    expect(pending?.n).toBe(0);
  }, 60_000);
});
