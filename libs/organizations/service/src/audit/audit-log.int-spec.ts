import { type DataSource } from 'typeorm';
import { loadConfig } from '@hub/config';
import { type AuditEventMessage } from '@hub/contracts';
import { type AuditFilter, type AuditPage, type AuditPageRpc } from '@hub/organizations-contract';
import { createPartitions, openDataSource, runMigrations } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { ORGANIZATIONS_MIGRATIONS } from '../migrations';
import { AUDIT_EVENTS_PARTITIONS } from '../migrations/1797000100000-partition-audit-events';
import { OrganizationsConfig } from '../organizations.config';
import { AUDIT_PAGE_BYTES, AuditLog } from './audit-log';
import { auditPageQuery } from './audit-log.store';

const ORG = 'a00000000000000000000001';
const OTHER = 'a00000000000000000000002';
const BIG = 'a00000000000000000000003';
const TYPES = ['repo.create', 'org.add_user', 'repo.update_settings', 'resource_group.add_users'];

/**
 * `count` events of one organization as the ingest stores them: three share each second (the
 * cursor's id breaks the tie), types and authors round-robin, and every 997th is by `rare`, of
 * type org.create, from 203.0.113.5 (the sparse filters).
 */
async function seed(ds: DataSource, org: string, from: number, count: number, dataBytes = 10): Promise<void> {
  await ds.query(
    `INSERT INTO organizations.audit_events (id, organization_id, created_at, type, author, ip, doc)
     SELECT id, $1, at, type, author, ip, json_build_object('_id', id, 'type', type, 'message', type || ' #' || i, 'ip', ip,
              'data', repeat('x', $4), 'author', json_build_object('user', author))::text
       FROM (SELECT i, lpad(to_hex(i), 24, '0') AS id, timestamptz '2026-11-01' - ((i / 3) || ' seconds')::interval AS at,
                    CASE WHEN i % 997 = 0 THEN 'org.create' ELSE ($5::text[])[1 + i % 4] END AS type,
                    CASE WHEN i % 997 = 0 THEN 'rare' ELSE 'user' || (i % 50) END AS author,
                    CASE WHEN i % 997 = 0 THEN '203.0.113.5' ELSE '10.0.' || (i % 200) || '.1' END AS ip
               FROM generate_series($2::int, $3::int - 1) AS i) s`,
    [org, from, from + count, dataBytes, TYPES],
  );
}

describeWithInfra('audit log pages (organizations, real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let log: AuditLog;

  /** Every event the export holds, page after page from the cursor, and the pages' sizes. */
  async function exportAll(
    organizationId: string,
    filter: AuditFilter,
    limit: number,
    maxBytes = AUDIT_PAGE_BYTES,
  ): Promise<{ ids: string[]; pages: AuditPage[] }> {
    const pages: AuditPage[] = [];
    let after: AuditPageRpc['after'];
    for (;;) {
      const page = await log.page({ organizationId, filter, limit, after }, maxBytes);
      pages.push(page);
      if (!page.head.last) break;
      after = page.head.last;
    }
    const text = (tail: string | Uint8Array): string =>
      typeof tail === 'string' ? tail : Buffer.from(tail).toString('utf8');
    const ids = pages.flatMap((p) => (JSON.parse(`[${text(p.tail)}]`) as { _id: string }[]).map((e) => e._id));
    return { ids, pages };
  }

  /** What the export must answer: every matching event, newest first (id breaks ties), straight from the table. */
  async function expected(org: string, where = 'true', values: unknown[] = []): Promise<string[]> {
    const rows = (await ds.query(
      `SELECT id FROM organizations.audit_events WHERE organization_id = $1 AND ${where} ORDER BY created_at DESC, id DESC`,
      [org, ...values],
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await openDataSource({
      schema: 'organizations',
      entities: [],
      migrations: ORGANIZATIONS_MIGRATIONS,
      databaseUrl: db.url,
      poolSize: 2,
    });
    await runMigrations(ds, 'organizations');
    // The months the seeds fall in, as the retention pass would have created them then.
    await createPartitions(ds, AUDIT_EVENTS_PARTITIONS, new Date('2026-10-01'), new Date('2026-11-01'));
    log = new AuditLog(ds, loadConfig(OrganizationsConfig, {}));
    await seed(ds, ORG, 0, 30_000);
    await seed(ds, OTHER, 30_000, 3_000);
    await seed(ds, BIG, 40_000, 60, 40_000);
    await ds.query('ANALYZE organizations.audit_events');
  }, 60_000);

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it.each([
    ['author:rare', { author: ['rare'] }, `author = 'rare'`],
    ['type:org.create', { type: ['org.create'] }, `type = 'org.create'`],
    ['ip:203.0.113.5', { ip: ['203.0.113.5'] }, `ip = '203.0.113.5'`],
    ['author:user7', { author: ['user7'] }, `author = 'user7'`],
    [
      'author:user7 type:org.add_user',
      { author: ['user7'], type: ['org.add_user'] },
      `author = 'user7' AND type = 'org.add_user'`,
    ],
    [
      'author:user7 type:repo.create (none)',
      { author: ['user7'], type: ['repo.create'] },
      `author = 'user7' AND type = 'repo.create'`,
    ],
    ['no filter', {}, 'true'],
  ] as [string, AuditFilter, string][])(
    '%s: every matching event of the organization once, newest first, across pages',
    async (_label, filter, where) => {
      const want = await expected(ORG, where);
      // Small pages for the filters (each crosses several), larger ones for all 30,000 events.
      const { ids, pages } = await exportAll(ORG, filter, where === 'true' ? 700 : 25);
      expect(pages.length).toBeGreaterThan(want.length > 25 ? 1 : 0);
      expect(ids).toHaveLength(want.length);
      expect(ids).toEqual(want);
    },
  );

  it('walks the index of the filtered field for a sparse filter, not every event of the organization', async () => {
    const plan = async (filter: AuditFilter, after?: AuditPageRpc['after']): Promise<string> => {
      const { sql, values } = auditPageQuery({ organizationId: ORG, filter, limit: 5000, after });
      const rows = (await ds.query(`EXPLAIN ${sql}`, values)) as { 'QUERY PLAN': string }[];
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    expect(await plan({ author: ['rare'] })).toMatch(/Index Scan using audit_events_\w*author/);
    expect(await plan({ type: ['org.create'] })).toMatch(/Index Scan using audit_events_\w*type/);
    expect(await plan({ ip: ['203.0.113.5'] })).toMatch(/Index Scan using audit_events_\w*ip/);
    const cursor = { createdAt: '2026-10-31T23:00:00.000000Z', id: 'ffffffffffffffffffffffff' };
    const paged = await plan({ author: ['rare'] }, cursor);
    expect(paged).toMatch(/Index Scan using audit_events_\w*author/);
    expect(paged).toMatch(/Index Cond: .*ROW\(created_at, id\) < ROW/);
    // The month holding the events is read through its index, never all of it; empty partitions
    // (the months ahead, the default one) may be scanned (nothing to read). A sparse filter sorts
    // its few matches across months; the unfiltered page merges the months' index orders.
    const sparse = await plan({ author: ['rare'] });
    const unfiltered = await plan({}, cursor);
    for (const p of [sparse, unfiltered]) expect(p).not.toMatch(/Seq Scan on audit_events_p20261001/);
    expect(unfiltered).toMatch(/Merge Append/);
    expect(unfiltered).not.toMatch(/-> +Sort/);
  });

  it('ends a page at the byte budget (one event at least), and the next page starts right after it', async () => {
    const want = await expected(BIG);
    const { ids, pages } = await exportAll(BIG, {}, 5000, 100_000);
    expect(ids).toEqual(want);
    // Events of about 40 kB: two fit in 100 kB.
    expect(pages.map((p) => p.head.count)).toEqual(Array(30).fill(2));
    const single = await exportAll(BIG, {}, 5000, 10);
    expect(single.ids).toEqual(want);
    expect(single.pages.every((p) => p.head.count === 1)).toBe(true);
  });

  it('keeps a page of the default budget under the bus message limit', async () => {
    const page = await log.page({ organizationId: BIG, filter: {}, limit: 5000 });
    expect(page.head.count).toBeGreaterThan(1);
    expect(page.tail.length).toBeLessThan(AUDIT_PAGE_BYTES);
  });

  it('stores events once per id, as the export answers them (spec 2.9)', async () => {
    const org = 'a00000000000000000000004';
    const event = (i: number, ip?: string): AuditEventMessage => ({
      type: 'org.update_settings',
      organizationId: org,
      organization: 'acme',
      message: `settings ${i}`,
      data: { i, quote: 'a "b"\n' },
      createdAt: new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString(),
      author: { _id: 'b00000000000000000000001', user: 'alice', type: 'user' },
      ...(ip ? { ip } : {}),
    });
    const id = (i: number): string => `c0000000000000000000000${i}`;
    await log.insert([
      { id: id(1), event: event(1, '203.0.113.7') },
      { id: id(2), event: event(2) },
    ]);
    await log.insert([
      { id: id(2), event: { ...event(9), createdAt: event(2).createdAt } },
      { id: id(3), event: event(3) },
    ]); // id 2 again (a redelivery: same id, same time): left as it was
    const { ids, pages } = await exportAll(org, {}, 100);
    expect(ids).toEqual([id(3), id(2), id(1)]);
    const events = JSON.parse(`[${Buffer.from(pages[0].tail).toString('utf8')}]`) as Record<string, unknown>[];
    expect(events[1]).toEqual({
      _id: id(2),
      createdAt: '2026-11-01T00:00:02.000Z',
      type: 'org.update_settings',
      data: { i: 2, quote: 'a "b"\n' },
      message: 'settings 2',
      author: {
        _id: 'b00000000000000000000001',
        user: 'alice',
        avatarUrl: expect.stringContaining('alice'),
        type: 'user',
      },
    });
    expect((await exportAll(org, { ip: ['203.0.113.7'] }, 100)).ids).toEqual([id(1)]);
    expect((await exportAll(org, { author: ['alice'], type: ['org.update_settings'] }, 100)).ids).toEqual([
      id(3),
      id(2),
      id(1),
    ]);
  });
});
