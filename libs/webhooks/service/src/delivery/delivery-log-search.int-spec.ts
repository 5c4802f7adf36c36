import { DataSource } from 'typeorm';
import { type WebhookLogFilterDto } from '@hub/webhooks-contract';
import { runMigrations, serviceDataSourceOptions } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { WEBHOOKS_MIGRATIONS } from '../migrations';
import { DeliveryLogWords1795718431720 } from '../migrations/1795718431720-delivery-log-words';
import { DeliveryLogStore } from './delivery-log.store';

const A = '00000000000000000000a001';
const B = '00000000000000000000b001';
/** Attempts of webhook A: more than the walk of a 2-row page (500 x 3), so `q` needs both halves. */
const ROWS = 4000;

const open = (url: string, migrations: (typeof WEBHOOKS_MIGRATIONS)[number][]): Promise<DataSource> =>
  new DataSource(
    serviceDataSourceOptions({ schema: 'webhooks', entities: [], migrations, databaseUrl: url, poolSize: 2 }),
  ).initialize();

/** Payload i of a webhook: `needle` in a few rows far apart, `common` in every other row. */
function payload(i: number, webhook: string): string {
  const words = [`Row-${i}`, i % 2 === 0 ? 'common' : 'rare'];
  if (webhook === A && [3, 1700, 1701, 3900].includes(i)) words.push('Needle alice/model');
  if (webhook === B) words.push('needle');
  return JSON.stringify({
    event: { scope: 'repo', action: 'update' },
    repo: { name: 'alice/model' },
    note: words.join(' '),
  });
}

/**
 * The q search of the delivery log (decision 0502) against its definition, the same words computed
 * from each payload without any index: whole words, all of them, case-insensitive, `/` a space,
 * newest first; on rows logged before the migration that added the stored words, and after it.
 */
describeWithInfra('delivery log: q finds the words of the payload, newest first, page after page', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    // The log as it was before the stored words: half of A's rows and all of B's already there.
    // Every migration before the one that stored the words (later ones run with the rest below).
    const before = await open(
      db.url,
      WEBHOOKS_MIGRATIONS.slice(0, WEBHOOKS_MIGRATIONS.indexOf(DeliveryLogWords1795718431720)),
    );
    await runMigrations(before, 'webhooks');
    await before.query(
      `INSERT INTO webhooks.webhooks (id, owner_id, owner_name, url, domains, disabled) VALUES
       ($1, $1, 'alice', 'http://127.0.0.1/a', ARRAY['repo'], false), ($2, $2, 'bob', 'http://127.0.0.1/b', ARRAY['repo'], false)`,
      [A, B],
    );
    const insert = (c: DataSource, webhook: string, from: number, to: number): Promise<unknown> =>
      c.query(
        `INSERT INTO webhooks.delivery_logs (id, webhook_id, delivery_id, trigger, attempt, request_headers, payload,
           status, response_headers, response_body, duration_ms, created_at)
         SELECT $5 || lpad(to_hex(i), 23, '0'), $1, lpad(to_hex(i), 24, '0'), 'scheduled', 1, '{}', p, 200, '{}', '', 1,
           now() - make_interval(secs => $4 - i)
         FROM unnest($2::int[], $3::text[]) AS u(i, p)`,
        [webhook, range(from, to), range(from, to).map((i) => payload(i, webhook)), ROWS, webhook === A ? 'a' : 'b'],
      );
    await insert(before, A, 0, ROWS / 2);
    await insert(before, B, 0, ROWS);
    await before.destroy();
    ds = await open(db.url, WEBHOOKS_MIGRATIONS);
    expect(await runMigrations(ds, 'webhooks')).toBe(
      WEBHOOKS_MIGRATIONS.length - WEBHOOKS_MIGRATIONS.indexOf(DeliveryLogWords1795718431720),
    );
    // The other half through the store, as the worker logs an attempt (it writes the words too).
    const ids: string[] = [];
    for (const i of range(ROWS / 2, ROWS)) {
      ids.push(
        await DeliveryLogStore.add(ds.manager, {
          webhookId: A,
          deliveryId: `${i}`.padStart(24, '0'),
          trigger: 'scheduled',
          attempt: 1,
          requestHeaders: {},
          payload: payload(i, A),
          result: { status: 200, headers: {}, body: '', durationMs: 1, error: null },
        }),
      );
    }
    await ds.query(
      `UPDATE webhooks.delivery_logs l SET created_at = now() - make_interval(secs => $3::int - u.i)
       FROM unnest($1::text[], $2::int[]) AS u(id, i) WHERE l.id = u.id`,
      [ids, range(ROWS / 2, ROWS), ROWS],
    );
    await ds.query('ANALYZE webhooks.delivery_logs');
    // A ceiling, not a deadline: 2,000 attempts logged one by one took over 30 s at load 20 in CI.
  }, 180_000);

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  /** Every page of A's log for `filter`, `limit` at a time, as the notes of the rows. */
  async function allPages(limit: number, filter: WebhookLogFilterDto): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await ds.transaction((m) => DeliveryLogStore.page(m, A, limit, cursor, filter));
      seen.push(...page.items.map((l) => String((l.payload as { note: string }).note)));
      cursor = page.next;
    } while (cursor !== undefined);
    return seen;
  }

  /** The definition, with no index: the same words of each payload of A, newest first. */
  async function expected(q: string): Promise<string[]> {
    const rows = (await ds.query(
      `SELECT payload FROM webhooks.delivery_logs WHERE webhook_id = $1
         AND to_tsvector('simple', translate(payload, '/', ' ')) @@ plainto_tsquery('simple', translate($2, '/', ' '))
       ORDER BY created_at DESC, seq DESC`,
      [A, q],
    )) as { payload: string }[];
    return rows.map((r) => (JSON.parse(r.payload) as { note: string }).note);
  }

  it.each([
    ['a word in four rows, two walked and two from the index', 'needle', 2, 4],
    ['case-insensitive, whole words', 'NEEDLE', 3, 4],
    ['every word must be there; / is a space', 'alice/model needle', 1, 4],
    ['a word in every other row', 'common', 20, ROWS / 2],
    ['one row', 'row-1701', 5, 1],
  ])('%s (q=%s, %d a page)', async (_what, q, limit, count) => {
    const want = await expected(q);
    expect(want).toHaveLength(count);
    expect(await allPages(limit, { q })).toEqual(want);
  });

  it('finds nothing for part of a word, a word only another webhook has, or no word at all', async () => {
    expect(await allPages(10, { q: 'needl' })).toEqual([]);
    expect(await allPages(10, { q: 'needle zebra' })).toEqual([]);
    expect(await allPages(10, { q: '!!! ///' })).toEqual([]);
    expect(await allPages(10, { q: `webhook ${A}` })).toEqual([]);
  });

  it('combines q with the other filters', async () => {
    const newest = await allPages(2, { q: 'needle', since: new Date(Date.now() - 1000 * 1000).toISOString() });
    expect(newest).toEqual((await expected('needle')).slice(0, 1));
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, k) => from + k);
}
