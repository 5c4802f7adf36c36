import { createHash } from 'node:crypto';
import { type NotificationFilters } from '@hub/notifications-contract';
import { filterConditions, whereAll } from './inbox-filters';

/** Items per page of GET /api/notifications (decision 0400). */
export const NOTIFICATIONS_PAGE_SIZE = 20;

export interface InboxPageQuery {
  /** Stable per statement text: the page runs as a named prepared statement (planned once per connection). */
  name: string;
  text: string;
  params: unknown[];
  start: number;
}

/**
 * One statement, so the counts, the version (ETag) and the page come from one snapshot and
 * always agree. `all` and `unread` are the user's inbox_state row (kept by triggers); `view` is
 * that row too unless the filters select by thread (repo, author, mention…), then it is a count
 * over the user's matching rows. `lastUpdate` alone subtracts the (usually few) newer rows. The
 * page is an index scan in inbox order, skipped when it starts past the end (a huge `p` is cheap).
 */
export function inboxPageQuery(userId: string, f: NotificationFilters): InboxPageQuery {
  const params: unknown[] = [userId];
  const where = whereAll(filterConditions(f, params));
  const byThread = /\bt\./.test(where);
  const start = (f.p ?? 0) * NOTIFICATIONS_PAGE_SIZE;
  params.push(start);
  const offset = `$${params.length}::bigint`;
  const from = `notifications.notifications n${byThread ? ' JOIN notifications.threads t ON t.id = n.thread_id' : ''} WHERE n.user_id = $1 AND ${where}`;
  const text = `
    WITH c AS MATERIALIZED (
      SELECT s.version, s.changed_at, coalesce(s.total, 0) AS total, coalesce(s.unread, 0) AS unread,
             ${viewCount(f, byThread, from, params)} AS view
        FROM (SELECT $1::bpchar AS user_id) u LEFT JOIN notifications.inbox_state s ON s.user_id = u.user_id)
    SELECT c.version, c.changed_at, c.total, c.unread, c.view, t.type, t.item, t.participants, p.read, p.discussion_event_id,
           to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
      FROM c LEFT JOIN LATERAL (
        SELECT n.thread_id, n.read, n.updated_at, n.discussion_event_id FROM ${from} AND ${offset} < c.view
         ORDER BY n.updated_at DESC, n.thread_id DESC LIMIT ${NOTIFICATIONS_PAGE_SIZE} OFFSET ${offset}) p ON true
      LEFT JOIN notifications.threads t ON t.id = p.thread_id
     ORDER BY p.updated_at DESC, p.thread_id DESC`;
  return {
    name: `notifications-page-${createHash('sha1').update(text).digest('hex').slice(0, 16)}`,
    text,
    params,
    start,
  };
}

function viewCount(f: NotificationFilters, byThread: boolean, from: string, params: unknown[]): string {
  if (byThread) return `(SELECT count(*) FROM ${from})`;
  const base = f.readStatus === 'unread' ? 'coalesce(s.unread, 0)' : 'coalesce(s.total, 0)';
  if (!f.lastUpdate) return base;
  params.push(new Date(f.lastUpdate).toISOString());
  const unread = f.readStatus === 'unread' ? ' AND NOT n.read' : '';
  return `${base} - (SELECT count(*) FROM notifications.notifications n
    WHERE n.user_id = $1 AND n.updated_at > $${params.length}::timestamptz${unread})`;
}
