import { DataSource } from 'typeorm';
import { type EventBus } from '@hub/messaging';
import { runMigrations, serviceDataSourceOptions } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { IntakeWatermark } from '../intake/intake-watermark';
import { PacedClaim } from '../options/paced-claim';
import { WEBHOOKS_MIGRATIONS } from '../migrations';
import { WebhooksConfig } from '../webhooks.config';
import { DeliveryQueueStore } from './delivery-queue.store';
import { InFlight } from './in-flight';

const MALLORY = 'aa0000000000000000000000';
const BOB = 'bb0000000000000000000000';
const hook = (owner: 'm' | 'b', n: number): string => `${owner}${String(n).padStart(23, '0')}`;

/** Issue 43 items 1 and 2 against Postgres: what one claim takes when one user's webhooks cannot keep up. */
describeWithInfra('the fair claim (decision 0505)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let paced: PacedClaim;
  /** What the intake's consumers have acked through (EventBus.processedThrough), as the test sets it. */
  let intakeThrough = Number.MAX_SAFE_INTEGER;
  const config = Object.assign(new WebhooksConfig(), {
    HUB_WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK: 4,
    HUB_WEBHOOK_MAX_IN_FLIGHT_PER_USER: 10,
  });

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
    const bus = { processedThrough: async () => intakeThrough } as unknown as EventBus;
    paced = new PacedClaim(ds, config, new IntakeWatermark(bus));
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  beforeEach(async () => {
    await ds.query(`TRUNCATE webhooks.webhooks CASCADE`);
    intakeThrough = Number.MAX_SAFE_INTEGER;
  });

  async function webhooks(owner: 'm' | 'b', count: number): Promise<void> {
    await ds.query(
      `INSERT INTO webhooks.webhooks (id, owner_id, owner_name, url, domains, disabled)
       SELECT $1 || lpad(n::text, 23, '0'), $2, $1, 'http://127.0.0.1/', ARRAY['repo'], 'false' FROM generate_series(1, $3) n`,
      [owner, owner === 'm' ? MALLORY : BOB, count],
    );
  }

  /** `perWebhook` deliveries to each of the owner's webhooks, queued `ageS` seconds ago (the oldest first in a plain FIFO). */
  async function deliveries(owner: 'm' | 'b', perWebhook: number, ageS: number, paced = false): Promise<void> {
    await ds.query(
      `INSERT INTO webhooks.deliveries (id, event_id, webhook_id, subject, payload, due_at, created_at, paced, event_seq)
       SELECT substr(md5(w.id || k), 1, 24), 'e' || k, w.id, 's', '{}', now() - make_interval(secs => $2 - k * 0.001),
              now() - make_interval(secs => $2 - k * 0.001), $4, k
       FROM webhooks.webhooks w CROSS JOIN generate_series(1, $3) k WHERE w.owner_name = $1`,
      [owner, ageS, perWebhook, paced],
    );
  }

  it("takes bob's delivery first though mallory's 300 to one webhook are older, and no more of hers than her cap", async () => {
    await webhooks('m', 1);
    await webhooks('b', 1);
    await deliveries('m', 300, 60);
    await deliveries('b', 1, 1);

    const claimed = await DeliveryQueueStore.claim(ds.manager, 128, new InFlight(4, 10).load(), config);

    expect(claimed.filter((d) => d.webhook_id === hook('b', 1))).toHaveLength(1);
    expect(claimed.filter((d) => d.webhook_id === hook('m', 1))).toHaveLength(4);
  });

  it('leaves out what this process already holds past the caps, per webhook and per user', async () => {
    await webhooks('m', 5);
    await webhooks('b', 1);
    await deliveries('m', 10, 60);
    await deliveries('b', 10, 1);
    const held = new InFlight(4, 10);
    for (let i = 0; i < 3; i++) held.started(hook('b', 1), BOB);
    for (let i = 0; i < 8; i++) held.started(hook('m', 1 + (i % 2)), MALLORY);

    const claimed = await DeliveryQueueStore.claim(ds.manager, 128, held.load(), config);

    // Bob: 3 of 4 held, 1 more. Mallory: 8 of 10 held, 2 more, from webhooks not at their cap.
    expect(claimed.filter((d) => d.webhook_id === hook('b', 1))).toHaveLength(1);
    const hers = claimed.filter((d) => d.webhook_id.startsWith('m'));
    expect(hers).toHaveLength(2);
    expect(hers.every((d) => d.webhook_id !== hook('m', 1) && d.webhook_id !== hook('m', 2))).toBe(true);
  });

  it('deals a small claim out in turns: every user and webhook gets one before anyone gets a second', async () => {
    await webhooks('m', 3);
    await webhooks('b', 2);
    await deliveries('m', 5, 60);
    await deliveries('b', 5, 1);

    const claimed = await DeliveryQueueStore.claim(ds.manager, 4, new InFlight(4, 100).load(), config);

    // Two turns each: bob's two webhooks and two of mallory's three.
    expect(claimed.filter((d) => d.webhook_id.startsWith('b'))).toHaveLength(2);
    expect(new Set(claimed.map((d) => d.webhook_id)).size).toBe(4);
  });

  it('an ordered webhook whose head is in flight or waiting for a retry takes no place: 70 of them do not stall bob', async () => {
    await webhooks('m', 70);
    await webhooks('b', 2);
    await ds.query(
      `INSERT INTO webhooks.delivery_options (webhook_id, max_per_second, ordered, next_at)
       SELECT id, CASE WHEN id = $1 THEN 50 END, true, now() - CASE WHEN owner_name = 'm' THEN interval '1 hour' ELSE interval '1 second' END
       FROM webhooks.webhooks`,
      [hook('b', 2)],
    );
    await ds.query(`UPDATE webhooks.delivery_options SET ordered = false WHERE webhook_id = $1`, [hook('b', 2)]);
    await deliveries('m', 2, 60, true);
    await deliveries('b', 2, 1, true);
    // Mallory's heads: half in flight, half waiting 5 minutes for a retry.
    await ds.query(
      `UPDATE webhooks.deliveries d SET attempts = 1,
         lease_until = CASE WHEN right(d.webhook_id, 1)::int % 2 = 0 THEN now() + interval '30 seconds' END,
         due_at = CASE WHEN right(d.webhook_id, 1)::int % 2 = 1 THEN now() + interval '5 minutes' ELSE d.due_at END
       WHERE d.webhook_id LIKE 'm%' AND d.event_id = 'e1'`,
    );

    const { claimed } = await paced.claim(128, new InFlight(4, 10).load());

    // Bob's ordered webhook sends its head, his paced one its slots due (two); mallory's nothing.
    expect(claimed.map((d) => `${d.webhook_id}:${d.event_id}`).sort()).toEqual([
      `${hook('b', 1)}:e1`,
      `${hook('b', 2)}:e1`,
      `${hook('b', 2)}:e2`,
    ]);
  });

  it("an ordered webhook's head waits while an earlier event is still in the intake (decision 0511)", async () => {
    await webhooks('b', 1);
    await ds.query(`INSERT INTO webhooks.delivery_options (webhook_id, ordered, next_at) VALUES ($1, true, now())`, [
      hook('b', 1),
    ]);
    // Events 1 and 2 went to two replicas' intakes; 2's row is queued, 1 is still being queued.
    await ds.query(
      `INSERT INTO webhooks.deliveries (id, event_id, webhook_id, subject, payload, due_at, paced, event_seq)
       VALUES ('d20000000000000000000000', 'e2', $1, 's', '{}', now(), true, 2)`,
      [hook('b', 1)],
    );
    intakeThrough = 0;
    await new Promise((r) => setTimeout(r, 30)); // past the watermark's reuse
    expect((await paced.claim(128, new InFlight(4, 10).load())).claimed).toEqual([]);

    // Event 1 queued (the intake acked it): it goes first, then 2.
    await ds.query(
      `INSERT INTO webhooks.deliveries (id, event_id, webhook_id, subject, payload, due_at, paced, event_seq)
       VALUES ('d10000000000000000000000', 'e1', $1, 's', '{}', now(), true, 1)`,
      [hook('b', 1)],
    );
    intakeThrough = 1;
    await new Promise((r) => setTimeout(r, 30));
    expect((await paced.claim(128, new InFlight(4, 10).load())).claimed.map((d) => d.event_id)).toEqual(['e1']);
  });
});
