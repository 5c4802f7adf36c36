import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Adds one (user_id, total, unread) delta per user to inbox_state and moves its version. */
const APPLY_DELTAS = `
  INSERT INTO notifications.inbox_state AS s (user_id, version, changed_at, total, unread)
  SELECT user_id, 1, now(), sum(dt), sum(du) FROM deltas GROUP BY user_id ORDER BY user_id
  ON CONFLICT (user_id) DO UPDATE
    SET version = s.version + 1, changed_at = now(), total = s.total + EXCLUDED.total, unread = s.unread + EXCLUDED.unread`;

/** One statement-level trigger per operation (transition tables allow one event per trigger). */
const TRIGGERS: { op: 'INSERT' | 'UPDATE' | 'DELETE'; tables: string; deltas: string }[] = [
  {
    op: 'INSERT',
    tables: 'NEW TABLE AS new_rows',
    deltas: 'SELECT user_id, 1 AS dt, (NOT read)::int AS du FROM new_rows',
  },
  {
    op: 'UPDATE',
    tables: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
    deltas: `SELECT user_id, 1 AS dt, (NOT read)::int AS du FROM new_rows
             UNION ALL SELECT user_id, -1, -((NOT read)::int) FROM old_rows`,
  },
  {
    op: 'DELETE',
    tables: 'OLD TABLE AS old_rows',
    deltas: 'SELECT user_id, -1 AS dt, -((NOT read)::int) AS du FROM old_rows',
  },
];

/**
 * Per-user counts (all, unread) kept in inbox_state by statement-level triggers on
 * notifications, in the transaction of the change: an unfiltered page reads its counts from one
 * row instead of counting the inbox, and every write path (ingest, mark, delete, a manual SQL
 * fix) keeps them equal to the list and moves the inbox version (ETag) by itself. A statement
 * that touches no row changes nothing. Locks are taken in user order (no deadlock between a
 * fan-out and a mark-all).
 */
export class InboxCounts1764000200000 implements MigrationInterface {
  name = 'InboxCounts1764000200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE notifications.inbox_state ADD COLUMN total bigint NOT NULL DEFAULT 0, ADD COLUMN unread bigint NOT NULL DEFAULT 0',
    );
    await q.query(`INSERT INTO notifications.inbox_state AS s (user_id, version, changed_at, total, unread)
      SELECT user_id, 1, now(), count(*), count(*) FILTER (WHERE NOT read) FROM notifications.notifications GROUP BY user_id
      ON CONFLICT (user_id) DO UPDATE SET total = EXCLUDED.total, unread = EXCLUDED.unread`);
    for (const t of TRIGGERS) {
      const fn = `notifications.inbox_counts_${t.op.toLowerCase()}`;
      await q.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          WITH deltas AS (${t.deltas}) ${APPLY_DELTAS};
          RETURN NULL;
        END $$`);
      await q.query(`CREATE TRIGGER inbox_counts_${t.op.toLowerCase()} AFTER ${t.op} ON notifications.notifications
        REFERENCING ${t.tables} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of TRIGGERS) {
      await q.query(`DROP TRIGGER inbox_counts_${t.op.toLowerCase()} ON notifications.notifications`);
      await q.query(`DROP FUNCTION notifications.inbox_counts_${t.op.toLowerCase()}()`);
    }
    await q.query('ALTER TABLE notifications.inbox_state DROP COLUMN total, DROP COLUMN unread');
  }
}
