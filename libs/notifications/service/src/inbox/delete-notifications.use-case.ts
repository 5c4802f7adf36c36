import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type BulkNotificationsResult, type BulkNotificationsRpc, NotificationsRpc } from '@hub/notifications-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { callerOf } from './caller';
import { announceInboxChanges } from './inbox-changes';
import { selectionOf } from './inbox-selection';
import { InboxStore } from './inbox.store';

/** Deletes the caller's selected notifications; the change and its announcement commit together. */
@Injectable()
export class DeleteNotificationsUseCase {
  constructor(private readonly outbox: Outbox) {}

  @RpcHandler(NotificationsRpc.Delete)
  execute(dto: BulkNotificationsRpc, ctx: RequestContext): Promise<BulkNotificationsResult> {
    const userId = callerOf(ctx);
    const selection = selectionOf(dto);
    return this.outbox.transaction(async (m) => {
      const changed = await InboxStore.delete(m, userId, selection);
      if (changed > 0) await announceInboxChanges(this.outbox, m, [userId]);
      return { changed };
    });
  }
}
