import { DataSource } from 'typeorm';
import { runMigrations, serviceDataSourceOptions } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, queryDatabase, type TestDatabase } from '@hub/testing';
import { type DirectLease, DeliveryQueueStore, type MatchInput } from '../delivery/delivery-queue.store';
import { WEBHOOKS_MIGRATIONS } from '../migrations';
import { WebhooksConfig } from '../webhooks.config';
import { IntakeBatch } from './intake-batch';
import { queuedByEvent } from './queued';

const ALICE = 'a11ce0000000000000000000';
const BOB = 'b0b000000000000000000000';

function event(n: number, over: Partial<MatchInput> = {}): MatchInput {
  return {
    eventId: `event-${n}`,
    subject: 'hub.events.repo.update',
    payload: JSON.stringify({ event: { action: `a${n}` } }),
    domain: 'repo',
    repoType: 'model',
    repoName: 'acme/model',
    ownerName: 'acme',
    ...over,
  };
}

describeWithInfra('intake: the events in flight are matched and queued by one statement', () => {
  const config = Object.assign(new WebhooksConfig(), { HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY: 3 });
  let db: TestDatabase;
  let ds: DataSource;
  let batch: IntakeBatch;
  let statements: jest.SpiedFunction<typeof DeliveryQueueStore.enqueue>;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await new DataSource(
      serviceDataSourceOptions({
        schema: 'webhooks',
        entities: [],
        migrations: WEBHOOKS_MIGRATIONS,
        databaseUrl: db.url,
        poolSize: 3,
      }),
    ).initialize();
    await runMigrations(ds, 'webhooks');
    batch = new IntakeBatch(ds, config);
    statements = jest.spyOn(DeliveryQueueStore, 'enqueue');
    // Alice watches the repo, Bob its owner (an organization); a third webhook is disabled.
    await ds.query(
      `INSERT INTO webhooks.webhooks (id, owner_id, owner_name, url, domains, disabled) VALUES
      ('000000000000000000000a01', $1, 'alice', 'http://127.0.0.1/a', ARRAY['repo'], 'false'),
      ('000000000000000000000b01', $2, 'bob', 'http://127.0.0.1/b', ARRAY['repo', 'discussion'], 'false'),
      ('000000000000000000000c01', $2, 'bob', 'http://127.0.0.1/c', ARRAY['repo'], 'true')`,
      [ALICE, BOB],
    );
    await ds.query(`INSERT INTO webhooks.watched (webhook_id, type, name, position) VALUES
      ('000000000000000000000a01', 'model', 'ACME/Model', 1), ('000000000000000000000b01', 'org', 'acme', 1),
      ('000000000000000000000b01', 'model', 'acme/model', 2), ('000000000000000000000c01', 'org', 'acme', 1)`);
  });

  afterAll(async () => {
    statements?.mockRestore();
    await ds?.destroy();
    await db?.drop();
  });

  beforeEach(() => statements.mockClear());

  it('queues each event for its webhooks in one statement, the daily limit counted in publish order within the batch', async () => {
    const queued = (await Promise.all([1, 2, 3, 4, 5].map((n) => batch.add(event(n))))).map((q) => q.count);

    expect(queued).toEqual([2, 2, 2, 0, 0]);
    expect(statements).toHaveBeenCalledTimes(1);
    const rows = await queryDatabase<{ event_id: string; webhook_id: string }>(
      db.url,
      `SELECT event_id, webhook_id FROM webhooks.deliveries ORDER BY event_id, webhook_id`,
    );
    expect(rows.map((r) => `${r.event_id}:${r.webhook_id.slice(-3)}`)).toEqual([
      'event-1:a01',
      'event-1:b01',
      'event-2:a01',
      'event-2:b01',
      'event-3:a01',
      'event-3:b01',
    ]);
    expect(
      await queryDatabase(db.url, `SELECT webhook_id, count FROM webhooks.trigger_counts ORDER BY webhook_id`),
    ).toEqual([
      { webhook_id: '000000000000000000000a01', count: 3 },
      { webhook_id: '000000000000000000000b01', count: 3 },
    ]);
  });

  it('queues nothing again for a repeated event, even twice in one batch, and counts nothing', async () => {
    await ds.query(`UPDATE webhooks.trigger_counts SET count = 0`);
    const queued = (await Promise.all([batch.add(event(1)), batch.add(event(1)), batch.add(event(6))])).map(
      (q) => q.count,
    );

    expect(queued).toEqual([0, 0, 2]);
    expect(await queryDatabase(db.url, `SELECT sum(count)::int AS n FROM webhooks.trigger_counts`)).toEqual([{ n: 2 }]);
  });

  it("a private repo: only the allowed owners' webhooks match; a discussion event only webhooks with that domain", async () => {
    await ds.query(`UPDATE webhooks.trigger_counts SET count = 0`);
    const queued = (
      await Promise.all([
        batch.add(event(7, { allowedOwners: [BOB] })),
        batch.add(event(8, { allowedOwners: [] })),
        batch.add(event(9, { domain: 'discussion' })),
      ])
    ).map((q) => q.count);

    expect(queued).toEqual([1, 0, 1]);
    const rows = await queryDatabase<{ event_id: string; webhook_id: string }>(
      db.url,
      `SELECT event_id, webhook_id FROM webhooks.deliveries WHERE event_id IN ('event-7', 'event-8', 'event-9') ORDER BY event_id`,
    );
    expect(rows).toEqual([
      { event_id: 'event-7', webhook_id: '000000000000000000000b01' },
      { event_id: 'event-9', webhook_id: '000000000000000000000b01' },
    ]);
  });

  it('an event the database refuses fails alone; its batch neighbours are queued', async () => {
    await ds.query(`UPDATE webhooks.trigger_counts SET count = 0`);
    const results = await Promise.allSettled([
      batch.add(event(10)),
      batch.add(event(11, { payload: 'nul \u0000 byte' })),
      batch.add(event(12)),
    ]);

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(
      await queryDatabase(
        db.url,
        `SELECT count(*)::int AS n FROM webhooks.deliveries WHERE event_id IN ('event-10', 'event-11', 'event-12')`,
      ),
    ).toEqual([{ n: 4 }]);
  });

  it("a namespace's events never wait behind another's statement; one namespace's run one statement at a time", async () => {
    await ds.query(`UPDATE webhooks.trigger_counts SET count = 0`);
    await ds.query(
      `INSERT INTO webhooks.webhooks (id, owner_id, owner_name, url, domains, disabled) VALUES
      ('000000000000000000000d01', $1, 'alice', 'http://127.0.0.1/d', ARRAY['repo'], 'false')`,
      [ALICE],
    );
    await ds.query(
      `INSERT INTO webhooks.watched (webhook_id, type, name, position) VALUES ('000000000000000000000d01', 'model', 'zed/model', 1)`,
    );
    await ds.query(`INSERT INTO webhooks.trigger_counts (webhook_id, hour, count)
      VALUES ('000000000000000000000a01', date_trunc('hour', now()), 0) ON CONFLICT DO NOTHING`);
    // acme's statement blocks on its counter row, locked by another session.
    const blocker = await ds.createQueryRunner();
    await blocker.startTransaction();
    try {
      await blocker.query(
        `SELECT 1 FROM webhooks.trigger_counts WHERE webhook_id = '000000000000000000000a01' FOR UPDATE`,
      );
      const acme = batch.add(event(13));
      await waitFor(async () => (await locksWaiting()) === 1);
      const acmeAgain = batch.add(event(14));
      const zed = await batch.add(event(15, { repoName: 'zed/model', ownerName: 'Zed' }));

      expect(zed.count).toBe(1);
      // acme's second event waits for its lane's statement, not beside it.
      expect(statements.mock.calls.map((c) => c[1].map((m) => m.eventId))).toEqual([['event-13'], ['event-15']]);
      await blocker.commitTransaction();
      expect((await acme).count).toBe(2);
      expect((await acmeAgain).count).toBe(2);
      expect(statements.mock.calls.map((c) => c[1].map((m) => m.eventId))).toEqual([
        ['event-13'],
        ['event-15'],
        ['event-14'],
      ]);
    } finally {
      if (blocker.isTransactionActive) await blocker.rollbackTransaction();
      await blocker.release();
    }
  });

  it("with room in the worker, plain rows are written leased to it (within its room and caps); a paced webhook's wait for a claim", async () => {
    await ds.query(`UPDATE webhooks.trigger_counts SET count = 0`);
    const none = { webhookIds: [], webhookCounts: [], ownerIds: [], ownerCounts: [] };
    const leasedOf = async (n: number, lease: DirectLease | undefined) =>
      queuedByEvent([event(n)], await DeliveryQueueStore.enqueue(ds.manager, [event(n)], config, lease))
        .get(`event-${n}`)
        ?.leased.map((d) => d.webhook_id.slice(-3)) ?? [];

    // Room for one of the two rows; then for both, but Alice's webhook is at its cap (8 in flight).
    expect(await leasedOf(20, { room: 1, load: none })).toHaveLength(1);
    const capped = { ...none, webhookIds: ['000000000000000000000a01'], webhookCounts: [8] };
    expect(await leasedOf(21, { room: 5, load: capped })).toEqual(['b01']);
    // No room given: nothing leased (the claim's path).
    expect(await leasedOf(22, undefined)).toEqual([]);
    // Bob's webhook becomes ordered: its rows are the paced claim's, never leased here.
    await ds.query(`UPDATE webhooks.trigger_counts SET count = 0`);
    await ds.query(
      `INSERT INTO webhooks.delivery_options (webhook_id, ordered) VALUES ('000000000000000000000b01', true)`,
    );
    try {
      expect(await leasedOf(23, { room: 5, load: none })).toEqual(['a01']);
    } finally {
      await ds.query(`DELETE FROM webhooks.delivery_options`);
    }
    const rows = await queryDatabase<{ event_id: string; webhook_id: string; leased: boolean; attempts: number }>(
      db.url,
      `SELECT event_id, webhook_id, lease_until IS NOT NULL AS leased, attempts FROM webhooks.deliveries
       WHERE event_id IN ('event-21', 'event-22', 'event-23') ORDER BY event_id, webhook_id`,
    );
    expect(
      rows.map((r) => `${r.event_id}:${r.webhook_id.slice(-3)}:${r.leased ? 'leased' : 'pending'}:${r.attempts}`),
    ).toEqual([
      'event-21:a01:pending:0',
      'event-21:b01:leased:1',
      'event-22:a01:pending:0',
      'event-22:b01:pending:0',
      'event-23:a01:leased:1',
      'event-23:b01:pending:0',
    ]);
  });

  async function locksWaiting(): Promise<number> {
    const rows = await queryDatabase<{ n: number }>(
      db.url,
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    return rows[0]?.n ?? 0;
  }
});

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
  if (!(await check())) throw new Error('condition not met within 5 s');
}
