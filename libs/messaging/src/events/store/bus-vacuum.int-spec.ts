import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BusStore } from './bus-store';

/** PGlite has no autovacuum launcher: the all-in-one process vacuums its database itself. */
describe('the all-in-one database on PGlite is vacuumed by the hub', () => {
  let store: BusStore;
  const consumer = { stream: 'VAC', durable: 'vac' };

  beforeAll(async () => {
    store = await BusStore.open({ dataDir: mkdtempSync(join(tmpdir(), 'bus-vacuum-')) });
    await store.ensureConsumer(consumer, 'vac.>');
  });

  afterAll(() => store?.close());

  it('runs VACUUM (ANALYZE) itself: after a consumer\'s churn the planner knows the tables\' sizes', async () => {
    for (let i = 0; i < 300; i++) await store.append('vac.x', `v-${i}`, '{}');
    while ((await store.fetchNew(consumer, 'vac.>')) > 0) {
      // read to the end
    }
    for (;;) {
      const batch = await store.claimDue(consumer, 30_000, 100);
      if (batch.length === 0) break;
      await store.ack(consumer, batch.map((m) => m.seq));
    }
    const stats = async (): Promise<{ reltuples: number; pages: number }> => {
      const [row] = (await store.ds.query(
        `SELECT reltuples::float8 AS reltuples, relpages AS pages FROM pg_class WHERE oid = 'bus.events'::regclass`,
      )) as { reltuples: number; pages: number }[];
      return row as { reltuples: number; pages: number };
    };
    expect((await stats()).reltuples).toBeLessThan(300); // never analyzed: -1 (or 0)
    // Statistics reach pg_stat_user_tables within about a second (what the thresholds read).
    const deadline = Date.now() + 10_000;
    for (;;) {
      const [seen] = (await store.ds.query(
        `SELECT n_mod_since_analyze::int AS n FROM pg_stat_user_tables WHERE schemaname = 'bus' AND relname = 'events'`,
      )) as { n: number }[];
      if ((seen?.n ?? 0) >= 300 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await store.vacuumIfNobodyDoes()).toEqual(expect.arrayContaining(['bus.events', 'bus.pending']));
    expect((await stats()).reltuples).toBe(300);
    const [pending] = (await store.ds.query(`SELECT count(*)::int AS n FROM bus.pending`)) as { n: number }[];
    expect(pending?.n).toBe(0);
  }, 60_000);
});
