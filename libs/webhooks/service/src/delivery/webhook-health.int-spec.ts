import { DataSource } from 'typeorm';
import { runMigrations, serviceDataSourceOptions } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { WEBHOOKS_MIGRATIONS } from '../migrations';
import { DeliveryQueueStore } from './delivery-queue.store';
import { WebhookHealthStore } from './webhook-health.store';

const A = 'a'.repeat(24);
const B = 'b'.repeat(24);

/** Failures written in groups (decision 0505, 29 Nov) against Postgres. */
describeWithInfra('grouped failures (decision 0505)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await new DataSource(
      serviceDataSourceOptions({
        schema: 'webhooks',
        entities: [],
        migrations: WEBHOOKS_MIGRATIONS,
        databaseUrl: db.url,
        poolSize: 2,
      }),
    ).initialize();
    await runMigrations(ds, 'webhooks');
    await ds.query(
      `INSERT INTO webhooks.webhooks (id, owner_id, owner_name, url, domains, disabled)
       SELECT id, 'o'::text || repeat('0', 23), 'owner', 'http://127.0.0.1/', ARRAY['repo'], 'false' FROM unnest($1::bpchar[]) id`,
      [[A, B]],
    );
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('adds each webhook its failures of the group in one statement, and answers the streaks', async () => {
    const first = await WebhookHealthStore.countFailures(
      ds.manager,
      new Map([
        [A, 3],
        [B, 1],
      ]),
    );
    const again = await WebhookHealthStore.countFailures(ds.manager, new Map([[A, 2]]));

    expect(first.get(A)?.failures).toBe(3);
    expect(first.get(B)?.failures).toBe(1);
    expect(again.get(A)?.failures).toBe(5);
    // The streak started with the first failure and stands.
    expect(again.get(A)?.failing_since).toEqual(first.get(A)?.failing_since);
    expect((await WebhookHealthStore.countFailures(ds.manager, new Map([['c'.repeat(24), 1]]))).size).toBe(0);
  });

  it('suspends a webhook once: a second process finds it suspended already', async () => {
    expect(await WebhookHealthStore.suspend(ds.manager, B, 'first')).toBe(true);
    expect(await WebhookHealthStore.suspend(ds.manager, B, 'second')).toBe(false);
    expect(await ds.query(`SELECT suspended_reason FROM webhooks.webhooks WHERE id = $1`, [B])).toEqual([
      { suspended_reason: 'first' },
    ]);
  });

  it('puts each failed delivery back after its delay, or gives it up, in one statement', async () => {
    await ds.query(
      `INSERT INTO webhooks.deliveries (id, event_id, webhook_id, subject, payload, lease_until)
       VALUES ($1, 'e1', $3, 's', '{}', now() + interval '1 minute'), ($2, 'e2', $3, 's', '{}', now() + interval '1 minute')`,
      ['1'.repeat(24), '2'.repeat(24), A],
    );

    await DeliveryQueueStore.failed(ds.manager, [
      { id: '1'.repeat(24), delayMs: 60_000 },
      { id: '2'.repeat(24), delayMs: null },
    ]);

    const rows = (await ds.query(
      `SELECT id, state, lease_until, round(extract(epoch from due_at - now())) AS in_s FROM webhooks.deliveries ORDER BY id`,
    )) as { id: string; state: string; lease_until: Date | null; in_s: string }[];
    expect(rows.map((r) => [r.state, r.lease_until])).toEqual([
      ['pending', null],
      ['failed', null],
    ]);
    expect(Number(rows[0]?.in_s)).toBeGreaterThanOrEqual(58);
  });
});
