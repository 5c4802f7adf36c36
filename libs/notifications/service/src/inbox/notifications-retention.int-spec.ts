import { type DataSource } from 'typeorm';
import { loadConfig } from '@hub/config';
import { openDataSource, runMigrations } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { NOTIFICATIONS_MIGRATIONS } from '../migrations';
import { NotificationsConfig } from '../notifications.config';
import { NotificationsRetention } from './notifications-retention';

const USER = 'd00000000000000000000001';

describeWithInfra('notifications retention (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await openDataSource({
      schema: 'notifications',
      entities: [],
      migrations: NOTIFICATIONS_MIGRATIONS,
      databaseUrl: db.url,
      poolSize: 2,
    });
    await runMigrations(ds, 'notifications');
    // 2,500 threads: read and 200 days old (i < 2000), unread and 200 days old, read and 10 days old.
    await ds.query(
      `INSERT INTO notifications.threads (id, type, item) SELECT lpad(to_hex(i), 24, '0'), 'discussion', '{}' FROM generate_series(0, 2499) i`,
    );
    await ds.query(
      `INSERT INTO notifications.notifications (user_id, thread_id, read, updated_at)
       SELECT $1, lpad(to_hex(i), 24, '0'), i < 2000 OR i >= 2400, now() - make_interval(days => CASE WHEN i >= 2400 THEN 10 ELSE 200 END)
         FROM generate_series(0, 2499) i`,
      [USER],
    );
    await ds.query(
      `INSERT INTO notifications.applied_events (id, applied_at) VALUES ('old', now() - interval '8 days'), ('new', now())`,
    );
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('deletes read notifications past retention in batches, keeps unread and recent ones, and the inbox counts follow', async () => {
    const retention = new NotificationsRetention(
      ds,
      loadConfig(NotificationsConfig, { HUB_NOTIFICATIONS_READ_RETENTION_DAYS: '180', HUB_BUS_RETENTION_DAYS: '7' }),
    );
    expect(await retention.pass()).toEqual({ notifications: 2000, appliedEvents: 1 });
    const left = (await ds.query(
      `SELECT read, count(*)::int AS n FROM notifications.notifications GROUP BY read ORDER BY read`,
    )) as { read: boolean; n: number }[];
    expect(left).toEqual([
      { read: false, n: 400 },
      { read: true, n: 100 },
    ]);
    const [state] = (await ds.query(
      `SELECT total::int AS total, unread::int AS unread FROM notifications.inbox_state WHERE user_id = $1`,
      [USER],
    )) as { total: number; unread: number }[];
    expect(state).toEqual({ total: 500, unread: 400 });
    expect(await ds.query(`SELECT id FROM notifications.applied_events`)).toEqual([{ id: 'new' }]);
    expect(await retention.pass()).toEqual({ notifications: 0, appliedEvents: 0 });
  });
});
