import { DataSource, type EntityManager } from 'typeorm';
import { runMigrations, serviceDataSourceOptions } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { WEBHOOKS_MIGRATIONS } from '../migrations';
import { PartitionDeliveryLogs1797000100000 } from '../migrations/1797000100000-partition-delivery-logs';
import { DeliveryLogStore } from './delivery-log.store';

const A = '00000000000000000000a001';
const DAY = 86_400_000;

const open = (url: string, migrations: (typeof WEBHOOKS_MIGRATIONS)[number][]): Promise<DataSource> =>
  new DataSource(
    serviceDataSourceOptions({ schema: 'webhooks', entities: [], migrations, databaseUrl: url, poolSize: 2 }),
  ).initialize();

const attempt = (i: number) => ({
  webhookId: A,
  deliveryId: `${i}`.padStart(24, '0'),
  trigger: 'scheduled' as const,
  attempt: 1,
  requestHeaders: {},
  payload: JSON.stringify({ event: { scope: 'repo', action: 'update' }, note: `after-${i}` }),
  result: { status: 200, headers: {}, body: '', durationMs: 1, error: null },
});

/** The delivery log partitioned by week (decision 0206): an upgrade keeps every row; retention drops whole weeks. */
describeWithInfra('delivery log partitions and retention (webhooks, real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    const before = await open(
      db.url,
      WEBHOOKS_MIGRATIONS.slice(0, WEBHOOKS_MIGRATIONS.indexOf(PartitionDeliveryLogs1797000100000)),
    );
    await runMigrations(before, 'webhooks');
    await before.query(
      `INSERT INTO webhooks.webhooks (id, owner_id, owner_name, url, domains, disabled)
       VALUES ($1, $1, 'alice', 'http://127.0.0.1/a', ARRAY['repo'], false)`,
      [A],
    );
    // 40 days of attempts logged by the release before, one an hour.
    await before.query(
      `INSERT INTO webhooks.delivery_logs (id, webhook_id, delivery_id, trigger, attempt, request_headers, payload,
         status, response_headers, response_body, duration_ms, created_at, search)
       SELECT lpad(to_hex(i), 24, '0'), $1::bpchar, lpad(to_hex(i), 24, '0'), 'scheduled', 1, '{}', '{"note":"before"}', 200, '{}', '', 1,
              now() - make_interval(hours => i), array_to_tsvector(ARRAY['before', 'webhook ' || $1::text])
         FROM generate_series(1, 960) AS i`,
      [A],
    );
    await before.destroy();
    ds = await open(db.url, WEBHOOKS_MIGRATIONS);
    await runMigrations(ds, 'webhooks');
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  async function everyPage(q?: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await ds.transaction((m) => DeliveryLogStore.page(m, A, 100, cursor, q === undefined ? {} : { q }));
      ids.push(...page.items.map((i) => i.id));
      if (!page.next) return ids;
      cursor = page.next;
    }
  }

  it('keeps every attempt logged before the upgrade; new ones go to the week partitions, newest first, searchable', async () => {
    expect(await everyPage()).toHaveLength(960);
    const added = [
      await DeliveryLogStore.add(ds.manager, attempt(1)),
      await DeliveryLogStore.add(ds.manager, attempt(2)),
    ];
    const all = await everyPage();
    expect(all).toHaveLength(962);
    expect(all.slice(0, 2)).toEqual([added[1], added[0]]);
    expect(await everyPage('after-2')).toEqual([added[1]]);
    expect(await everyPage('before')).toHaveLength(960);
    const parts = (await ds.query(
      `SELECT DISTINCT tableoid::regclass::text AS part FROM webhooks.delivery_logs WHERE id = ANY($1)`,
      [added],
    )) as { part: string }[];
    expect(parts).toEqual([{ part: expect.stringMatching(/^webhooks\.delivery_logs_(p|until_)\d{8}$/) }]);
  });

  it('drops whole weeks past retention (the old table once all of it is), creates the weeks ahead', async () => {
    const tx = <T>(work: (m: EntityManager) => Promise<T>): Promise<T> => ds.transaction(work);
    const pass = await DeliveryLogStore.partitions(tx, 30, new Date());
    // The old table holds up to next Monday: nothing of it goes before that is 30 days old.
    expect(pass?.dropped).toEqual([]);
    expect(await everyPage()).toHaveLength(962);
    // 40 days on: the old table (up to next Monday at most 7 days on) is past 30 days.
    const later = await DeliveryLogStore.partitions(tx, 30, new Date(Date.now() + 40 * DAY));
    expect(later?.dropped).toContainEqual(expect.stringMatching(/^delivery_logs_until_\d{8}$/));
    expect(later?.created).toHaveLength(3);
    const [{ n }] = (await ds.query(`SELECT count(*)::int AS n FROM webhooks.delivery_logs`)) as { n: number }[];
    expect(n).toBe(0);
    // The id sequence outlived the old table it was made for.
    const [seq] = (await ds.query(`SELECT to_regclass('webhooks.delivery_logs_seq_seq') IS NOT NULL AS kept`)) as {
      kept: boolean;
    }[];
    expect(seq.kept).toBe(true);
  });
});

describeWithInfra('delivery log partitions on a new install (webhooks, real Postgres)', () => {
  it('starts with the weeks from the current one on, no old partition, and logs into the current week', async () => {
    const db = await createTestDatabase();
    const ds = await open(db.url, WEBHOOKS_MIGRATIONS);
    try {
      await runMigrations(ds, 'webhooks');
      await ds.query(
        `INSERT INTO webhooks.webhooks (id, owner_id, owner_name, url, domains, disabled)
         VALUES ($1, $1, 'alice', 'http://127.0.0.1/a', ARRAY['repo'], false)`,
        [A],
      );
      const id = await DeliveryLogStore.add(ds.manager, attempt(1));
      const parts = (await ds.query(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'webhooks.delivery_logs'::regclass ORDER BY 1`,
      )) as { name: string }[];
      // This week and the weeks to two after the next.
      expect(parts.map((p) => p.name)).toEqual(Array(4).fill(expect.stringMatching(/^delivery_logs_p\d{8}$/)));
      const [row] = (await ds.query(
        `SELECT tableoid::regclass::text AS part, seq::int AS seq FROM webhooks.delivery_logs WHERE id = $1`,
        [id],
      )) as { part: string; seq: number }[];
      expect(row).toEqual({ part: `webhooks.${parts[0].name}`, seq: 1 });
    } finally {
      await ds.destroy();
      await db.drop();
    }
  });
});
