import { ArrayMaxSize, IsArray, Matches } from 'class-validator';
import { event, OBJECT_ID_PATTERN } from '@hub/contracts';

/**
 * `hub.notifications.inbox.changed`: these users' inboxes changed (a notification arrived, was
 * marked or deleted); gateways drop the ETags they keep to answer polls. At most 1,000 users per
 * message: a larger change is several messages.
 */
export class InboxChangedEvent {
  @IsArray()
  @ArrayMaxSize(1000)
  @Matches(OBJECT_ID_PATTERN, { each: true })
  userIds!: string[];
}

/** Every event the notifications service publishes; what it reads is `NotificationSourceEvents`. */
export const NotificationsEvents = {
  InboxChanged: event<InboxChangedEvent>('hub.notifications.inbox.changed', InboxChangedEvent),
} as const;
