import { type EntityManager } from 'typeorm';
import { type NotificationFilters } from '@hub/notifications-contract';
import { deleteInBatches, preparedQuery } from '@hub/persistence';
import { filterConditions, whereAll } from './inbox-filters';
import { inboxPageQuery } from './inbox-page.query';
import { type InboxRow } from './notification-item';

/** A user's inbox version (the ETag's) and last change; no row: nothing happened yet. */
export interface InboxStateRow {
  version: string | null;
  changed_at: Date | string | null;
}

/** The page's rows: each carries the counts and the state; a row without `type` is the counts alone. */
export interface InboxPageRow extends Partial<InboxRow>, InboxStateRow {
  view: string;
  unread: string;
  total: string;
}

/** Which of the caller's notifications a bulk change touches. */
export type InboxSelection = { filters: NotificationFilters } | { threadIds: string[] };

/**
 * The only SQL on `notifications.notifications` and `inbox_state` for the inbox RPCs. The
 * inbox_state triggers adjust the counts and move the version (ETag) in the caller's transaction.
 */
export const InboxStore = {
  /** A poll's one primary-key read. */
  async state(m: EntityManager, userId: string): Promise<InboxStateRow | undefined> {
    const [state] = await preparedQuery<InboxStateRow>(
      m.connection,
      'notifications-inbox-state',
      'SELECT version, changed_at FROM notifications.inbox_state WHERE user_id = $1',
      [userId],
    );
    return state;
  },

  /** The page, its counts and the state from one snapshot (never empty: the counts row is always there). */
  async page(
    m: EntityManager,
    userId: string,
    filters: NotificationFilters,
  ): Promise<{ rows: InboxPageRow[]; start: number }> {
    const q = inboxPageQuery(userId, filters);
    return { rows: await preparedQuery<InboxPageRow>(m.connection, q.name, q.text, q.params), start: q.start };
  },

  /** Sets read (or unread) on the selected rows that differ; answers how many changed. */
  async mark(m: EntityManager, userId: string, selection: InboxSelection, read: boolean): Promise<number> {
    const params: unknown[] = [userId];
    const where = whereOf(selection, params);
    params.push(read);
    const from = needsThread(where) ? 'FROM notifications.threads t WHERE t.id = n.thread_id AND' : 'WHERE';
    const sql = `UPDATE notifications.notifications n SET read = $${params.length} ${from} n.user_id = $1 AND n.read <> $${params.length} AND ${where}`;
    return affectedRows(await m.query(sql, params));
  },

  async delete(m: EntityManager, userId: string, selection: InboxSelection): Promise<number> {
    const params: unknown[] = [userId];
    const where = whereOf(selection, params);
    const using = needsThread(where) ? 'USING notifications.threads t WHERE t.id = n.thread_id AND' : 'WHERE';
    const sql = `DELETE FROM notifications.notifications n ${using} n.user_id = $1 AND ${where}`;
    return affectedRows(await m.query(sql, params));
  },

  /**
   * Retention (decision 0206): read notifications whose last activity is older than `days`, in
   * batches; the outer conditions are checked again on the row it deletes, so one made unread
   * meanwhile stays.
   */
  deleteReadBefore(m: EntityManager, days: number): Promise<number> {
    return deleteInBatches(
      m,
      `DELETE FROM notifications.notifications n
        USING (SELECT user_id, thread_id FROM notifications.notifications
                WHERE updated_at < now() - make_interval(secs => $1::float8 * 86400) AND read
                ORDER BY updated_at LIMIT $2) old
        WHERE n.user_id = old.user_id AND n.thread_id = old.thread_id AND n.read
          AND n.updated_at < now() - make_interval(secs => $1::float8 * 86400)`,
      [days],
    );
  },
};

function whereOf(selection: InboxSelection, params: unknown[]): string {
  if ('filters' in selection) return whereAll(filterConditions(selection.filters, params));
  params.push(selection.threadIds);
  return `n.thread_id = ANY($${params.length}::bpchar[])`;
}

/** TypeORM answers an UPDATE/DELETE on Postgres with [rows, rowCount]. */
function affectedRows(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

/** Filters on the thread (repo, author, mentions…) need the join; read state and lastUpdate do not. */
function needsThread(where: string): boolean {
  return /\bt\./.test(where);
}
