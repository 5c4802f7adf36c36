import { IsInt, Min } from 'class-validator';
import * as pg from 'pg';
import { DataSource } from 'typeorm';
import { event, subject } from '@hub/contracts';
import { createTestDatabase, describeWithInfra, type TestDatabase, waitUntil } from '@hub/testing';
import { type EventMeta } from '../events/event-bus';
import { InProcessEventBus } from '../events/in-process-event-bus';
import { Outbox, outboxEvent } from './outbox';
import { OutboxRelay } from './outbox-relay';

class Step {
  @IsInt()
  @Min(0)
  n!: number;
}
const Stepped = event<Step>('test.outbox.step', Step);

/** The table a service's migration creates (each service's create-outbox migration). */
async function createOutboxTables(ds: DataSource, schema: string): Promise<void> {
  await ds.query(`CREATE SCHEMA ${schema}`);
  await ds.query(`CREATE TABLE ${schema}.outbox (
    id char(24) PRIMARY KEY, seq bigserial NOT NULL UNIQUE, subject text NOT NULL, payload text NOT NULL,
    aggregate varchar(64), created_at timestamptz NOT NULL DEFAULT now(), sent_at timestamptz,
    attempts int NOT NULL DEFAULT 0, last_error text)`);
  await ds.query(
    `CREATE TABLE ${schema}.outbox_relay (id int PRIMARY KEY, holder varchar(64), lease_until timestamptz)`,
  );
  await ds.query(`INSERT INTO ${schema}.outbox_relay (id) VALUES (1)`);
  await ds.query(`CREATE TABLE ${schema}.things (n int PRIMARY KEY)`);
}

describeWithInfra('transactional outbox on Postgres', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let bus: InProcessEventBus;
  const got: { n: number; meta: EventMeta }[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await new DataSource({ type: 'postgres', url: db.url, driver: pg, poolSize: 4 }).initialize();
    await createOutboxTables(ds, 'svc');
    bus = await InProcessEventBus.open({ databaseUrl: db.url });
    await bus.consume({
      stream: 'TEST',
      durable: 'outbox-reader',
      source: Stepped,
      handler: async (p, meta) => void got.push({ n: p.n, meta }),
    });
  });

  /** An outbox and its started relay, with the relay's wake-ups counted from here on. */
  function startedWithKicks(): { relay: OutboxRelay; outbox: Outbox; kicks: jest.SpyInstance } {
    const relay = new OutboxRelay(ds, bus, 'svc');
    const outbox = new Outbox(ds, 'svc', relay, bus);
    const kicks = jest.spyOn(relay, 'kick');
    relay.start();
    kicks.mockClear();
    return { relay, outbox, kicks };
  }

  afterAll(async () => {
    await bus?.close();
    await ds?.destroy();
    await db?.drop();
  });

  it('publishes what committed, in order, with the outbox id as msgId, and nothing of a rolled-back transaction', async () => {
    const relay = new OutboxRelay(ds, bus, 'svc');
    const outbox = new Outbox(ds, 'svc', relay, bus);
    relay.start();
    const ids: string[] = [];
    await outbox.transaction(async (m) => {
      await m.query('INSERT INTO svc.things (n) VALUES (1)');
      for (const n of [1, 2, 3]) ids.push(await outbox.add(m, Stepped, { n }, { aggregate: 'a' }));
    });
    await expect(
      outbox.transaction(async (m) => {
        await outbox.add(m, Stepped, { n: 99 }, { aggregate: 'a' });
        await m.query('INSERT INTO svc.things (n) VALUES (1)'); // duplicate key: the whole transaction goes
      }),
    ).rejects.toThrow();
    await waitUntil(() => got.length >= 3);
    await new Promise((r) => setTimeout(r, 300));
    await relay.stop();
    expect(got.map((g) => g.n)).toEqual([1, 2, 3]);
    expect(got.map((g) => g.meta.msgId)).toEqual(ids);
    expect(got[0]?.meta.subject).toBe(subject('test.outbox.step'));
    const rows = (await ds.query(`SELECT count(*)::int AS pending FROM svc.outbox WHERE sent_at IS NULL`)) as {
      pending: number;
    }[];
    expect(rows[0]?.pending).toBe(0);
  });

  it('wakes the relay after a transaction that added events, not after one that added none', async () => {
    got.length = 0;
    const { relay, outbox, kicks } = startedWithKicks();
    for (const n of [-1, -2, -3])
      await outbox.transaction((m) => m.query('INSERT INTO svc.things (n) VALUES ($1)', [n]));
    expect(kicks).not.toHaveBeenCalled();
    const started = Date.now();
    await outbox.transaction(async (m) => void (await outbox.add(m, Stepped, { n: 13 })));
    expect(kicks).toHaveBeenCalledTimes(1);
    await waitUntil(() => got.length >= 1);
    // At once, not at the relay's next poll (1 s).
    expect(Date.now() - started).toBeLessThan(900);
    await relay.stop();
    expect(got.map((g) => g.n)).toEqual([13]);
  });

  it('refuses an invalid event, failing the transaction that made it', async () => {
    const relay = new OutboxRelay(ds, bus, 'svc');
    const outbox = new Outbox(ds, 'svc', relay, bus);
    await expect(
      outbox.transaction(async (m) => {
        await m.query('INSERT INTO svc.things (n) VALUES (2)');
        await outbox.add(m, Stepped, { n: -5 });
      }),
    ).rejects.toThrow(/invalid .*test\.outbox\.step event: n must not be less than 0/);
    expect(await ds.query('SELECT n FROM svc.things WHERE n = 2')).toEqual([]);
  });

  it('write: a statement and its events in one, the events stored only when the statement returned a row, in order', async () => {
    got.length = 0;
    const relay = new OutboxRelay(ds, bus, 'svc');
    const outbox = new Outbox(ds, 'svc', relay, bus);
    relay.start();
    await ds.query('INSERT INTO svc.things (n) VALUES (10)');
    const move = (to: number, from: number) => ({
      sql: 'UPDATE svc.things SET n = $1 WHERE n = $2 RETURNING n',
      parameters: [to, from],
    });
    expect(
      await outbox.write(move(11, 10), [outboxEvent(Stepped, { n: 4 }, 'w'), outboxEvent(Stepped, { n: 5 }, 'w')]),
    ).toEqual([{ n: 11 }]);
    // Nothing matched: no row, no event.
    expect(await outbox.write(move(12, 10), [outboxEvent(Stepped, { n: 6 }, 'w')])).toEqual([]);
    // An invalid event fails before anything is written.
    await expect(outbox.write(move(13, 11), [outboxEvent(Stepped, { n: -1 })])).rejects.toThrow(
      /invalid .*test\.outbox\.step event/,
    );
    expect(await ds.query('SELECT n FROM svc.things WHERE n >= 10 ORDER BY n')).toEqual([{ n: 11 }]);
    await waitUntil(() => got.length >= 2);
    await new Promise((r) => setTimeout(r, 300));
    await relay.stop();
    expect(got.map((g) => g.n)).toEqual([4, 5]);
  });

  it('write in a transaction: its events go out after the commit, and a rollback drops them with the write', async () => {
    got.length = 0;
    const { relay, outbox, kicks } = startedWithKicks();
    const insert = (n: number) => ({ sql: 'INSERT INTO svc.things (n) VALUES ($1) RETURNING n', parameters: [n] });
    await expect(
      outbox.transaction(async (m) => {
        await outbox.write(insert(20), [outboxEvent(Stepped, { n: 20 })], m);
        throw new Error('no room');
      }),
    ).rejects.toThrow('no room');
    expect(kicks).not.toHaveBeenCalled();
    await outbox.transaction(async (m) => {
      await outbox.write(insert(21), [outboxEvent(Stepped, { n: 21 })], m);
      // Not yet: the relay is woken by the commit, so it never looks before the row is there.
      expect(kicks).not.toHaveBeenCalled();
    });
    expect(kicks).toHaveBeenCalledTimes(1);
    await waitUntil(() => got.length >= 1);
    await new Promise((r) => setTimeout(r, 300));
    await relay.stop();
    expect(got.map((g) => g.n)).toEqual([21]);
    expect(await ds.query('SELECT n FROM svc.things WHERE n >= 20 ORDER BY n')).toEqual([{ n: 21 }]);
  });

  it('publishes what this process wrote as checked against its class, and a row written elsewhere unchecked', async () => {
    got.length = 0;
    const relay = new OutboxRelay(ds, bus, 'svc');
    const outbox = new Outbox(ds, 'svc', relay, bus);
    const published = jest.spyOn(bus, 'publishInOrder');
    const mine = await outbox.transaction((m) => outbox.add(m, Stepped, { n: 30 }));
    // As another replica (or this one before a restart) wrote it: its consumers validate it.
    await ds.query(`INSERT INTO svc.outbox (id, subject, payload) VALUES ('${'f'.repeat(24)}', $1, '{"n":31}')`, [
      Stepped.subject,
    ]);
    relay.start();
    await waitUntil(() => got.length >= 2);
    await relay.stop();
    const sent = published.mock.calls.flatMap(([events]) => events);
    expect(sent.find((e) => e.msgId === mine)?.checked).toEqual([Step]);
    expect(sent.find((e) => e.msgId === 'f'.repeat(24))?.checked).toBeUndefined();
    expect(got.map((g) => g.n)).toEqual([30, 31]);
    published.mockRestore();
  });

  it('relays from one replica at a time, and another takes over when it stops', async () => {
    got.length = 0;
    const a = new OutboxRelay(ds, bus, 'svc');
    const b = new OutboxRelay(ds, bus, 'svc');
    const outboxA = new Outbox(ds, 'svc', a, bus);
    a.start();
    b.start();
    for (let i = 10; i < 20; i++)
      await outboxA.transaction(async (m) => void (await outboxA.add(m, Stepped, { n: i })));
    await waitUntil(() => got.length >= 10);
    const [lease] = (await ds.query('SELECT holder FROM svc.outbox_relay')) as { holder: string }[];
    // Stop whichever holds the lease: the other one must take over at once.
    await (lease?.holder === a.holder ? a : b).stop();
    const outboxB = new Outbox(ds, 'svc', b, bus);
    for (let i = 20; i < 25; i++)
      await outboxB.transaction(async (m) => void (await outboxB.add(m, Stepped, { n: i })));
    await waitUntil(() => got.length >= 15);
    await new Promise((r) => setTimeout(r, 300));
    await Promise.all([a.stop(), b.stop()]);
    expect(got.map((g) => g.n)).toEqual(Array.from({ length: 15 }, (_, i) => i + 10));
  });
});
