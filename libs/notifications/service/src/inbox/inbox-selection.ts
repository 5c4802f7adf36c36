import { type BulkNotificationsRpc } from '@hub/notifications-contract';
import { NothingSelectedError } from './inbox.errors';
import { type InboxSelection } from './inbox.store';

/** By ids, or (applyToAll) every notification matching the filters; nothing named is a 400. */
export function selectionOf(dto: BulkNotificationsRpc): InboxSelection {
  if (dto.query.applyToAll === true) return { filters: dto.query };
  if (dto.discussionIds.length > 0) return { threadIds: dto.discussionIds };
  throw new NothingSelectedError();
}
