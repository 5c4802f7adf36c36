import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import {
  type BulkNotificationsResult,
  type BulkNotificationsRpc,
  inboxNotModified,
  type ListNotificationsRpc,
  type NotificationsPage,
  type RequestContext,
} from '@hub/contracts';
import { Outbox } from '@hub/messaging';
import { preparedQuery } from '@hub/persistence';
import { NOTIFICATIONS_DS } from '../notifications.tokens';
import { callerOf, filterConditions, whereAll } from './inbox-filters';
import { announceInboxChanges } from './inbox-changes';
import { NothingSelectedError } from './inbox.errors';
import { inboxPageQuery } from './inbox-page.query';
import { type InboxRow, toNotificationItem } from './notification-item';

interface StateRow {
  version: string | null;
  changed_at: Date | string | null;
}

interface PageRow extends Partial<InboxRow>, StateRow {
  view: string;
  unread: string;
  total: string;
}

/** The inbox: a page with its counts, its ETag, and bulk read/unread and delete. */
@Injectable()
export class InboxUseCases {
  constructor(
    @InjectDataSource(NOTIFICATIONS_DS) private readonly ds: DataSource,
    private readonly outbox: Outbox,
  ) {}

  async list(dto: ListNotificationsRpc, ctx: RequestContext): Promise<NotificationsPage> {
    const userId = callerOf(ctx);
    const queryHash = createHash('sha1').update(JSON.stringify(dto.filters)).digest('base64url').slice(0, 12);
    if (dto.ifNoneMatch !== undefined || dto.ifModifiedSince !== undefined) {
      // A poll: one primary-key read, no counting or paging while nothing changed.
      const [state] = await preparedQuery<StateRow>(
        this.ds,
        'notifications-inbox-state',
        'SELECT version, changed_at FROM notifications.inbox_state WHERE user_id = $1',
        [userId],
      );
      const v = validators(state, queryHash);
      if (inboxNotModified(v.etag, v.changedAt.getTime(), dto))
        return { notModified: true, etag: v.etag, lastModified: v.changedAt.toUTCString() };
    }
    const q = inboxPageQuery(userId, dto.filters);
    const rows = await preparedQuery<PageRow>(this.ds, q.name, q.text, q.params);
    const head = rows[0] as PageRow;
    const v = validators(head.version === null ? undefined : head, queryHash);
    const notifications = rows
      .filter((r) => r.type !== null && r.type !== undefined)
      .map((r) => toNotificationItem(r as InboxRow));
    return {
      notModified: false,
      etag: v.etag,
      lastModified: v.changedAt.toUTCString(),
      page: {
        notifications,
        count: { view: Number(head.view), unread: Number(head.unread), all: Number(head.total) },
        start: q.start,
      },
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
  private async bulk(
    dto: BulkNotificationsRpc,
    ctx: RequestContext,
    statement: (where: string, params: unknown[]) => string,
  ): Promise<BulkNotificationsResult> {
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
    return this.outbox.transaction(async (m: EntityManager) => {
      // The inbox_state triggers adjust the counts and move the version (ETag) in this transaction.
      const changed = affectedRows(await m.query(statement(where, params), params));
      if (changed > 0) await announceInboxChanges(this.outbox, m, [userId]);
      return { changed };
    });
  }
}

/** The weak ETag (inbox version + the query) and the last change; a user with no row yet is at version 0. */
function validators(state: StateRow | undefined, queryHash: string): { etag: string; changedAt: Date } {
  return {
    etag: `W/"${state?.version ?? '0'}-${queryHash}"`,
    changedAt: state?.changed_at ? new Date(state.changed_at) : new Date(0),
  };
}

/** TypeORM answers an UPDATE/DELETE on Postgres with [rows, rowCount]. */
function affectedRows(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

/** Filters on the thread (repo, author, mentions…) need the join; read state and lastUpdate do not. */
function needsThread(where: string): boolean {
  return /\bt\./.test(where);
}
