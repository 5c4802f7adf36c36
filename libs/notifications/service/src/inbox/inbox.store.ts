import { createHash } from 'node:crypto';
import { type EntityManager } from 'typeorm';
import { type NotificationType } from '@hub/contracts';
import {
  type BlogRef,
  type NotificationFilters,
  type NotificationItem,
  type NotificationParticipant,
  type NotificationRepo,
  type PaperDiscussionRef,
  type PaperRef,
  type PostRef,
  type RepoDiscussionRef,
} from '@hub/notifications-contract';
import { deleteInBatches, preparedQuery } from '@hub/persistence';
import { InvalidLastUpdateError } from './inbox.errors';

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

// The page's statement

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

// The filters of spec 4.1 as SQL conditions

/**
 * The WHERE conditions of the spec 4.1 filters over `n` (notifications) joined with `t`
 * (threads); `$1` is always the user id. Values go in `params`, never into the text.
 */
export function filterConditions(f: NotificationFilters, params: unknown[]): string[] {
  const add = (v: unknown): string => {
    params.push(v);
    return `$${params.length}`;
  };
  const c: string[] = [];
  if (f.readStatus === 'unread') c.push('NOT n.read');
  if (f.repoType) c.push(`t.type = 'repo' AND t.repo_type = ${add(f.repoType)}`);
  if (f.repoName) c.push(`lower(t.repo_name) = lower(${add(f.repoName)})`);
  if (f.postAuthor) c.push(`lower(t.post_author) = lower(${add(f.postAuthor)})`);
  if (f.paperId) c.push(`t.paper_id = ${add(f.paperId)}`);
  if (f.articleId) {
    const a = add(f.articleId);
    c.push(`t.type = 'community_blog' AND (t.article_id = ${a} OR t.article_slug = ${a})`);
  }
  if (f.mention === 'participating') c.push('$1::bpchar = ANY(t.participant_ids)');
  if (f.mention === 'mentions') c.push('$1::bpchar = ANY(t.mentioned_ids)');
  if (f.lastUpdate) c.push(`n.updated_at <= ${add(instant(f.lastUpdate))}::timestamptz`);
  return c;
}

/** ISO 8601 also has week and ordinal dates and basic formats, which Date does not read. */
function instant(text: string): string {
  const t = new Date(text);
  if (Number.isNaN(t.getTime())) throw new InvalidLastUpdateError();
  return t.toISOString();
}

export function whereAll(conds: string[]): string {
  return conds.length === 0 ? 'true' : conds.map((x) => `(${x})`).join(' AND ');
}

// A row as answered

type NoParticipants<T> = Omit<T, 'participating'>;

/** The thread's part of an item as stored (`threads.item`); `participating` is kept beside it. */
export interface StoredThreadItem {
  repo: NotificationRepo;
  discussion: NoParticipants<RepoDiscussionRef>;
  paper: PaperRef;
  paperDiscussion: NoParticipants<PaperDiscussionRef>;
  post: NoParticipants<PostRef>;
  blog: NoParticipants<BlogRef>;
}

export interface InboxRow {
  type: NotificationType;
  item: StoredThreadItem;
  participants: NotificationParticipant[];
  read: boolean;
  updated_at: string;
  discussion_event_id: string | null;
}

/** A row as one of the four spec 2.6 shapes (the thread's stored part plus this user's state). */
export function toNotificationItem(r: InboxRow): NotificationItem {
  const common = {
    updatedAt: r.updated_at,
    read: r.read,
    ...(r.discussion_event_id ? { discussionEventId: r.discussion_event_id } : {}),
  };
  const participating = r.participants;
  const it = r.item;
  switch (r.type) {
    case 'repo':
      return { type: 'repo', ...common, repo: it.repo, discussion: { ...it.discussion, participating } };
    case 'paper':
      return { type: 'paper', ...common, paper: it.paper, paperDiscussion: { ...it.paperDiscussion, participating } };
    case 'post':
      return { type: 'post', ...common, post: { ...it.post, participating } };
    case 'community_blog':
      return { type: 'community_blog', ...common, blog: { ...it.blog, participating } };
  }
}
