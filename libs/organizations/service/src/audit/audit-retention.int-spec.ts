import { type DataSource } from 'typeorm';
import { loadConfig } from '@hub/config';
import { type AuditEventMessage } from '@hub/contracts';
import { openDataSource, runMigrations } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { ORGANIZATIONS_MIGRATIONS } from '../migrations';
import { OrganizationsConfig } from '../organizations.config';
import { AuditLog } from './audit-log';
import { AuditRetention } from './audit-retention';

const ORG = 'b00000000000000000000001';
const DAY = 86_400_000;

/** Events of ORG stored under the schema before partitioning: one a day, back `days` days from now, each with a tx. */
async function seedOld(ds: DataSource, days: number): Promise<void> {
  await ds.query(
    `INSERT INTO organizations.audit_events (id, organization_id, created_at, type, author, ip, doc, tx)
     SELECT lpad(to_hex(i), 24, '0'), $1, now() - (i || ' days')::interval, 'repo.create', 'alice', NULL,
            json_build_object('_id', lpad(to_hex(i), 24, '0'), 'type', 'repo.create')::text, 1000 + i
       FROM generate_series(0, $2::int - 1) AS i`,
    [ORG, days],
  );
}

async function exportIds(log: AuditLog): Promise<string[]> {
  const ids: string[] = [];
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    const page = await log.page({ organizationId: ORG, filter: {}, limit: 100, after });
    const tail = typeof page.tail === 'string' ? page.tail : Buffer.from(page.tail).toString('utf8');
    ids.push(...(JSON.parse(`[${tail}]`) as { _id: string }[]).map((e) => e._id));
    if (!page.head.last) return ids;
    after = page.head.last;
  }
}

describeWithInfra('audit log partitions and retention (organizations, real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    // The schema of the release before partitioning, with a year of events in it.
    const before = await openDataSource({
      schema: 'organizations',
      entities: [],
      migrations: ORGANIZATIONS_MIGRATIONS.slice(0, -1),
      databaseUrl: db.url,
      poolSize: 1,
    });
    await runMigrations(before, 'organizations');
    await seedOld(before, 400);
    await before.destroy();
    ds = await openDataSource({
      schema: 'organizations',
      entities: [],
      migrations: ORGANIZATIONS_MIGRATIONS,
      databaseUrl: db.url,
      poolSize: 2,
    });
    expect(await runMigrations(ds, 'organizations')).toBe(1);
  }, 60_000);

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('keeps every event stored before the upgrade, with its tx, and the export pages through them newest first', async () => {
    const log = new AuditLog(ds, loadConfig(OrganizationsConfig, {}));
    const ids = await exportIds(log);
    expect(ids).toHaveLength(400);
    expect(ids).toEqual(Array.from({ length: 400 }, (_, i) => i.toString(16).padStart(24, '0')));
    const [{ kind }] = (await ds.query(
      `SELECT relkind AS kind FROM pg_class WHERE oid = 'organizations.audit_events'::regclass`,
    )) as { kind: string }[];
    expect(kind).toBe('p');
    const [{ n }] = (await ds.query(
      `SELECT count(*)::int AS n FROM organizations.audit_events WHERE tx = 1000 + ('x' || right(id, 8))::bit(32)::int`,
    )) as { n: number }[];
    expect(n).toBe(400);
    // The default partition holds nothing: each month of the old rows got its own partition.
    const [{ d }] = (await ds.query(`SELECT count(*)::int AS d FROM organizations.audit_events_default`)) as {
      d: number;
    }[];
    expect(d).toBe(0);
  });

  it('stores a redelivered event once, and an event in a month without a partition in the default one', async () => {
    const log = new AuditLog(ds, loadConfig(OrganizationsConfig, {}));
    const event = (createdAt: string): AuditEventMessage => ({
      organizationId: ORG,
      organization: 'acme',
      createdAt,
      type: 'repo.delete',
      message: 'gone',
      author: { _id: 'c00000000000000000000001', user: 'bob', type: 'user' },
    });
    const future = new Date(Date.now() + 400 * DAY).toISOString();
    await log.insert([{ id: 'e00000000000000000000001', event: event(new Date().toISOString()) }]);
    await log.insert([{ id: 'e00000000000000000000002', event: event(future) }]);
    const again = [{ id: 'e00000000000000000000002', event: event(future) }];
    await log.insert(again);
    const rows = (await ds.query(
      `SELECT id, tableoid::regclass::text AS part FROM organizations.audit_events WHERE id LIKE 'e%' ORDER BY id`,
    )) as { id: string; part: string }[];
    expect(rows.map((r) => r.id)).toEqual(['e00000000000000000000001', 'e00000000000000000000002']);
    expect(rows[1].part).toBe('organizations.audit_events_default');
  });

  it('drops the months wholly past retention and creates the months ahead; a later pass moves default rows into their new month', async () => {
    const retention = new AuditRetention(ds, loadConfig(OrganizationsConfig, { HUB_AUDIT_RETENTION_DAYS: '180' }));
    const pass = await retention.pass();
    expect(pass.dropped.length).toBeGreaterThanOrEqual(6);
    const oldest = (await ds.query(
      `SELECT min(created_at) AS at, count(*)::int AS n FROM organizations.audit_events WHERE id NOT LIKE 'e%'`,
    )) as { at: Date; n: number }[];
    // Kept: at least 180 days, at most a month more (whole months go).
    expect(Date.now() - oldest[0].at.getTime()).toBeGreaterThanOrEqual(180 * DAY - DAY);
    expect(Date.now() - oldest[0].at.getTime()).toBeLessThan(212 * DAY);
    // A pass 400 days on creates that month, with the stray row moved into it.
    const later = await retention.pass(new Date(Date.now() + 400 * DAY));
    expect(later.created.length).toBeGreaterThan(0);
    const [row] = (await ds.query(
      `SELECT tableoid::regclass::text AS part FROM organizations.audit_events WHERE id = 'e00000000000000000000002'`,
    )) as { part: string }[];
    expect(row.part).toMatch(/^organizations\.audit_events_p\d{8}$/);
    // ... and everything older than 180 days before then is gone.
    const [{ n }] = (await ds.query(`SELECT count(*)::int AS n FROM organizations.audit_events`)) as { n: number }[];
    expect(n).toBe(1);
  });
});
