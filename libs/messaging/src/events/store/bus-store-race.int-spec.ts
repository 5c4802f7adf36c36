import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { BusStore } from './bus-store';

/**
 * A consumer that keeps up with concurrent publishers reads at the head of the stream, where
 * appends commit in a different order than they took their sequence numbers. None may be skipped.
 */
describeWithInfra('the all-in-one bus on Postgres: a consumer at the head of concurrent publishers', () => {
  let db: TestDatabase;
  let store: BusStore;
  const consumer = { stream: 'RACE', durable: 'race' };

  beforeAll(async () => {
    db = await createTestDatabase();
    store = await BusStore.open({ databaseUrl: db.url });
    await store.ensureConsumer(consumer, 'race.>');
  });

  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it('takes every event appended by 8 publishers at once into the pending list, none skipped', async () => {
    const publishers = 8;
    const perPublisher = 400;
    let publishing = true;
    const fetching = (async () => {
      while (publishing) await store.fetchNew(consumer, 'race.>');
      while ((await store.fetchNew(consumer, 'race.>')) > 0) {
        // drain what the last publishers committed
      }
    })();
    await Promise.all(
      Array.from({ length: publishers }, async (_, p) => {
        for (let i = 0; i < perPublisher; i++) await store.append(`race.p${p}`, `p${p}-${i}`, `{"i":${i}}`);
      }),
    );
    publishing = false;
    await fetching;

    const [{ n }] = (await store.ds.query(`SELECT count(*)::int AS n FROM bus.pending WHERE durable = 'race'`)) as {
      n: number;
    }[];
    const skipped = (await store.ds.query(
      `SELECT e.seq FROM bus.events e LEFT JOIN bus.pending p ON p.seq = e.seq AND p.durable = 'race' WHERE p.seq IS NULL`,
    )) as { seq: string }[];
    expect(skipped).toEqual([]);
    expect(n).toBe(publishers * perPublisher);
  }, 120_000);
});
