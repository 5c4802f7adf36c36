import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import {
  inboxNotModified,
  type ListNotificationsRpc,
  type NotificationsPage,
  NotificationsRpc,
} from '@hub/notifications-contract';
import { NOTIFICATIONS_DS } from '../notifications.di';
import { callerOf } from './caller';
import { type InboxRow, InboxStore, type InboxStateRow, toNotificationItem } from './inbox.store';
import { RpcHandler } from '@hub/messaging';

/** The inbox page with its counts and its ETag; a poll whose validators still hold is a 304. */
@Injectable()
export class ListNotificationsUseCase {
  constructor(@InjectDataSource(NOTIFICATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(NotificationsRpc.List)
  async execute(dto: ListNotificationsRpc, ctx: RequestContext): Promise<NotificationsPage> {
    const userId = callerOf(ctx);
    const queryHash = createHash('sha1').update(JSON.stringify(dto.filters)).digest('base64url').slice(0, 12);
    if (dto.ifNoneMatch !== undefined || dto.ifModifiedSince !== undefined) {
      // A poll: one primary-key read, no counting or paging while nothing changed.
      const v = validators(await InboxStore.state(this.ds.manager, userId), queryHash);
      if (inboxNotModified(v.etag, v.changedAt.getTime(), dto))
        return { notModified: true, etag: v.etag, lastModified: v.changedAt.toUTCString() };
    }
    const { rows, start } = await InboxStore.page(this.ds.manager, userId, dto.filters);
    const head = rows[0] as (typeof rows)[number];
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
        start,
      },
    };
  }
}

/** The weak ETag (inbox version + the query) and the last change; a user with no row yet is at version 0. */
function validators(state: InboxStateRow | undefined, queryHash: string): { etag: string; changedAt: Date } {
  return {
    etag: `W/"${state?.version ?? '0'}-${queryHash}"`,
    changedAt: state?.changed_at ? new Date(state.changed_at) : new Date(0),
  };
}
