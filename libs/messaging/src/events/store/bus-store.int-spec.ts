import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { BusStore, FETCH_LIMIT } from './bus-store';

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

  it('appends a batch in order in one statement, with appends made beside it before or after it, never inside', async () => {
    const batch = ['b1', 'b2', 'b3', 'b2'].map((id, i) => ({
      subject: 'test.batch',
      msgId: id,
      payload: `{"i":${i}}`,
    }));
    const [before, stored, after] = await Promise.all([
      store.append('test.batch', 'single-1', '{}'),
      store.appendAll(batch),
      store.append('test.batch', 'single-2', '{}'),
    ]);
    expect([before, after]).toEqual([true, true]);
    expect(stored).toEqual([true, true, true, false]);
    const rows: { msg_id: string; xmin: string }[] = await store.ds.query(
      `SELECT msg_id, xmin::text FROM bus.events WHERE subject = 'test.batch' ORDER BY seq`,
    );
    expect(rows.map((r) => r.msg_id)).toEqual(['single-1', 'b1', 'b2', 'b3', 'single-2']);
    // One transaction (one statement) wrote the whole batch.
    expect(new Set(rows.slice(1, 4).map((r) => r.xmin)).size).toBe(1);
  });

  it('writes a batch larger than one statement usually takes (500) whole, in one statement', async () => {
    const batch = Array.from({ length: 600 }, (_, i) => ({ subject: 'test.big', msgId: `big-${i}`, payload: '{}' }));
    const [stored, after] = await Promise.all([store.appendAll(batch), store.append('test.big', 'big-after', '{}')]);
    expect(stored.every(Boolean)).toBe(true);
    expect(after).toBe(true);
    const rows: { msg_id: string; xmin: string }[] = await store.ds.query(
      `SELECT msg_id, xmin::text FROM bus.events WHERE subject = 'test.big' ORDER BY seq`,
    );
    expect(rows.map((r) => r.msg_id)).toEqual([...batch.map((b) => b.msgId), 'big-after']);
    expect(new Set(rows.slice(0, 600).map((r) => r.xmin)).size).toBe(1);
  });

  it('stores none of a batch when its statement fails, and the appends after it still go in', async () => {
    await store.ds.query(`ALTER TABLE bus.events ADD CONSTRAINT test_refuse CHECK (subject <> 'test.refused')`);
    try {
      const batch = ['ok-1', 'no', 'ok-2'].map((id) => ({
        subject: id === 'no' ? 'test.refused' : 'test.unit',
        msgId: id,
        payload: '{}',
      }));
      const [all, later] = await Promise.allSettled([store.appendAll(batch), store.append('test.unit', 'later', '{}')]);
      expect(all.status).toBe('rejected');
      expect(later).toEqual({ status: 'fulfilled', value: true });
      const rows: { msg_id: string }[] = await store.ds.query(
        `SELECT msg_id FROM bus.events WHERE subject IN ('test.unit', 'test.refused') ORDER BY seq`,
      );
      expect(rows.map((r) => r.msg_id)).toEqual(['later']);
    } finally {
      await store.ds.query(`ALTER TABLE bus.events DROP CONSTRAINT test_refuse`);
    }
  });

  it("counts a consumer's lag: events past its cursor that match its filter, plus those taken and not acked", async () => {
    const c = { stream: 'lag', durable: 'lagging' };
    await store.ensureConsumer(c, 'lag.a.>');
    for (const subject of ['lag.a.one', 'lag.b.one', 'lag.a.two', 'lag.a.three'])
      await store.append(subject, undefined, '{}');
    expect(await store.lag(c, 'lag.a.>')).toBe(3);
    // Other tests' events come first: read the stream to its end, as a consumer does.
    let { claimed: taken, read } = await store.fetchAndClaim(c, 'lag.a.>', 30_000, 2);
    while (taken.length === 0 && read === FETCH_LIMIT)
      ({ claimed: taken, read } = await store.fetchAndClaim(c, 'lag.a.>', 30_000, 2));
    expect(taken).toHaveLength(2);
    expect(await store.lag(c, 'lag.a.>')).toBe(3);
    await store.ack(
      c,
      taken.map((m) => m.seq),
    );
    expect(await store.lag(c, 'lag.a.>')).toBe(1);
    await store.append('lag.a.four', undefined, '{}');
    expect(await store.lag(c, 'lag.a.>')).toBe(2);
  });

  it('claims what is due, then what is new, in order and in one statement; the rest of what it read waits in pending', async () => {
    const c = { stream: 'fc', durable: 'fetch-and-claim' };
    await store.ensureConsumer(c, 'fc.>');
    for (const subject of ['fc.1', 'other.x', 'fc.2', 'fc.3', 'fc.4', 'fc.5'])
      await store.append(subject, subject, '{}');
    const subjects = (ms: { subject: string }[]): string[] => ms.map((m) => m.subject);
    // Other tests' events come first: a pass reads up to FETCH_LIMIT of them, as the consumer does.
    let first = await store.fetchAndClaim(c, 'fc.>', 30_000, 2);
    while (first.claimed.length === 0 && first.read === FETCH_LIMIT)
      first = await store.fetchAndClaim(c, 'fc.>', 30_000, 2);
    expect(subjects(first.claimed)).toEqual(['fc.1', 'fc.2']);
    expect(first.claimed.map((m) => m.deliveries)).toEqual([1, 1]);
    expect(first.read).toBeLessThan(FETCH_LIMIT);
    const pending = async (): Promise<{ subject: string; deliveries: number }[]> =>
      store.ds.query(
        `SELECT e.subject, p.deliveries FROM bus.pending p JOIN bus.events e ON e.seq = p.seq
          WHERE p.stream = 'fc' AND p.durable = 'fetch-and-claim' ORDER BY p.seq`,
      );
    expect(await pending()).toEqual([
      { subject: 'fc.1', deliveries: 1 },
      { subject: 'fc.2', deliveries: 1 },
      { subject: 'fc.3', deliveries: 0 },
      { subject: 'fc.4', deliveries: 0 },
      { subject: 'fc.5', deliveries: 0 },
    ]);
    // fc.1's ack wait runs out; fc.6 is published. The due ones (fc.1 again, then fc.3, fc.4) come
    // before the new one, which waits in pending for want of room.
    await store.ack(c, [first.claimed[1]!.seq]);
    await store.ds.query(`UPDATE bus.pending SET next_at = now() WHERE stream = 'fc' AND seq = $1`, [
      first.claimed[0]!.seq,
    ]);
    await store.append('fc.6', 'fc.6', '{}');
    const second = await store.fetchAndClaim(c, 'fc.>', 30_000, 3);
    expect(subjects(second.claimed)).toEqual(['fc.1', 'fc.3', 'fc.4']);
    expect(second.claimed.map((m) => m.deliveries)).toEqual([2, 1, 1]);
    expect(second.read).toBe(1);
    const third = await store.fetchAndClaim(c, 'fc.>', 30_000, 16);
    expect(subjects(third.claimed)).toEqual(['fc.5', 'fc.6']);
    expect(third.read).toBe(0);
    await store.ack(
      c,
      [...second.claimed, ...third.claimed].map((m) => m.seq),
    );
    expect(await store.lag(c, 'fc.>')).toBe(0);
    expect(await store.fetchAndClaim(c, 'fc.>', 30_000, 16)).toEqual({ claimed: [], read: 0 });
  });
});
