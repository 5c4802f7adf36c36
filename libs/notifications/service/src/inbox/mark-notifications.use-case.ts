import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type BulkNotificationsResult, type BulkNotificationsRpc, NotificationsRpc } from '@hub/notifications-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { callerOf } from './caller';
import { announceInboxChanges } from './inbox-changes';
import { selectionOf } from './inbox-selection';
import { InboxStore } from './inbox.store';

/** Marks the caller's selected notifications read (or unread); the change and its announcement commit together. */
@Injectable()
export class MarkNotificationsUseCase {
  constructor(private readonly outbox: Outbox) {}

  @RpcHandler(NotificationsRpc.Mark)
  execute(dto: BulkNotificationsRpc, ctx: RequestContext): Promise<BulkNotificationsResult> {
    const userId = callerOf(ctx);
    const selection = selectionOf(dto);
    return this.outbox.transaction(async (m) => {
      const changed = await InboxStore.mark(m, userId, selection, dto.read ?? true);
      if (changed > 0) await announceInboxChanges(this.outbox, m, [userId]);
      return { changed };
    });
  }
}
