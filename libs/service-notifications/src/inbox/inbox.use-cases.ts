import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import {
  type BulkNotificationsResult, type BulkNotificationsRpc, type ListNotificationsRpc, type NotificationsPage, type RequestContext,
} from '@hub/contracts';
import { preparedQuery } from '@hub/persistence';
import { NOTIFICATIONS_DS, NOTIFICATIONS_PAGE_SIZE } from '../notifications.tokens';
import { callerOf, filterConditions, whereAll } from './inbox-filters';
import { NothingSelectedError } from './inbox.errors';
import { bumpInboxVersions } from './inbox-version';
import { type InboxRow, toNotificationItem } from './notification-item';

interface PageRow extends Partial<InboxRow> {
  view: string;
  unread: string;
  total: string;
}

/** The inbox: a page with its counts, its ETag, and bulk read/unread and delete. */
@Injectable()
export class InboxUseCases {
  constructor(@InjectDataSource(NOTIFICATIONS_DS) private readonly ds: DataSource) {}

  async list(dto: ListNotificationsRpc, ctx: RequestContext): Promise<NotificationsPage> {
    const userId = callerOf(ctx);
    // The version is read before the page: the page is at least as new as the ETag it travels with.
    const [state] = await preparedQuery<{ version: string; changed_at: Date }>(
      this.ds, 'notifications-inbox-state', 'SELECT version, changed_at FROM notifications.inbox_state WHERE user_id = $1', [userId],
    );
    const version = state?.version ?? '0';
    const changedAt = state ? new Date(state.changed_at) : new Date(0);
    const queryHash = createHash('sha1').update(JSON.stringify(dto.filters)).digest('base64url').slice(0, 12);
    const etag = `W/"${version}-${queryHash}"`;
    const lastModified = changedAt.toUTCString();
    if (notModified(etag, changedAt, dto)) return { notModified: true, etag, lastModified };

    const params: unknown[] = [userId];
    const view = whereAll(filterConditions(dto.filters, params));
    const start = (dto.filters.p ?? 0) * NOTIFICATIONS_PAGE_SIZE;
    params.push(start);
    const offset = `$${params.length}`;
    // One statement: the counts and the page come from one snapshot, so they always agree.
    const rows: PageRow[] = await this.ds.query(
      // Counting reads only the narrow columns of the user's rows; the 20 items of the page then
      // fetch their thread's stored item (jsonb) by primary key.
      `WITH f AS MATERIALIZED (
         SELECT n.thread_id, n.read, n.updated_at, n.discussion_event_id, (${view}) AS in_view
           FROM notifications.notifications n ${threadJoin(view)} WHERE n.user_id = $1),
       c AS (SELECT count(*) FILTER (WHERE in_view) AS view, count(*) FILTER (WHERE NOT read) AS unread, count(*) AS total FROM f)
       SELECT c.view, c.unread, c.total, t.type, t.item, t.participants, p.read,
              to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at, p.discussion_event_id
         FROM c LEFT JOIN LATERAL (
           SELECT * FROM f WHERE in_view AND ${offset}::bigint < c.view
            ORDER BY updated_at DESC, thread_id DESC LIMIT ${NOTIFICATIONS_PAGE_SIZE} OFFSET ${offset}::bigint) p ON true
         LEFT JOIN notifications.threads t ON t.id = p.thread_id
        ORDER BY p.updated_at DESC, p.thread_id DESC`,
      params,
    );
    const head = rows[0] as PageRow;
    const notifications = rows.filter((r) => r.type !== null && r.type !== undefined).map((r) => toNotificationItem(r as InboxRow));
    return {
      notModified: false, etag, lastModified,
      page: { notifications, count: { view: Number(head.view), unread: Number(head.unread), all: Number(head.total) }, start },
    };
  }

  mark(dto: BulkNotificationsRpc, ctx: RequestContext): Promise<BulkNotificationsResult> {
    const read = dto.read ?? true;
    return this.bulk(dto, ctx, (where, params) => {
      params.push(read);
      const from = needsThread(where) ? 'FROM notifications.threads t WHERE t.id = n.thread_id AND' : 'WHERE';
      return `UPDATE notifications.notifications n SET read = $${params.length} ${from} n.user_id = $1 AND n.read <> $${params.length} AND ${where}`;
    });
  }

  delete(dto: BulkNotificationsRpc, ctx: RequestContext): Promise<BulkNotificationsResult> {
    return this.bulk(dto, ctx, (where) => {
      const using = needsThread(where) ? 'USING notifications.threads t WHERE t.id = n.thread_id AND' : 'WHERE';
      return `DELETE FROM notifications.notifications n ${using} n.user_id = $1 AND ${where}`;
    });
  }

  /** By ids, or (applyToAll) every notification matching the filters; only the caller's rows. */
  private async bulk(dto: BulkNotificationsRpc, ctx: RequestContext, statement: (where: string, params: unknown[]) => string): Promise<BulkNotificationsResult> {
    const userId = callerOf(ctx);
    const params: unknown[] = [userId];
    let where: string;
    if (dto.query.applyToAll === true) {
      where = whereAll(filterConditions(dto.query, params));
    } else if (dto.discussionIds.length > 0) {
      params.push(dto.discussionIds);
      where = `n.thread_id = ANY($${params.length}::bpchar[])`;
    } else {
      throw new NothingSelectedError();
    }
    return this.ds.transaction(async (m: EntityManager) => {
      const changed = affectedRows(await m.query(statement(where, params), params));
      if (changed > 0) await bumpInboxVersions(m, [userId]);
      return { changed };
    });
  }
}

function notModified(etag: string, changedAt: Date, dto: ListNotificationsRpc): boolean {
  if (dto.ifNoneMatch !== undefined) {
    return dto.ifNoneMatch.split(',').some((t) => t.trim() === '*' || t.trim() === etag || `W/${t.trim()}` === etag);
  }
  if (dto.ifModifiedSince !== undefined) {
    const since = Date.parse(dto.ifModifiedSince);
    // HTTP dates carry whole seconds.
    return !Number.isNaN(since) && Math.floor(changedAt.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

/** TypeORM answers an UPDATE/DELETE on Postgres with [rows, rowCount]. */
function affectedRows(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

/** Filters on the thread (repo, author, mentions…) need the join; read state and lastUpdate do not. */
function needsThread(where: string): boolean {
  return /\bt\./.test(where);
}

function threadJoin(where: string): string {
  return needsThread(where) ? 'JOIN notifications.threads t ON t.id = n.thread_id' : '';
}
