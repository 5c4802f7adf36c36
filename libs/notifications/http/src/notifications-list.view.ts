import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { NOTIFICATION_ITEM_CLASSES, NotificationCounts, type NotificationItem } from '@hub/notifications-contract';

/** GET /api/notifications (spec 4.1): a page of the four 2.6 shapes with the counts. */
export class NotificationsListView {
  @ApiProperty({ type: 'array', items: { oneOf: NOTIFICATION_ITEM_CLASSES.map((c) => ({ $ref: getSchemaPath(c) })) } })
  notifications!: NotificationItem[];

  @ApiProperty({ type: NotificationCounts })
  count!: NotificationCounts;

  @ApiProperty({ description: 'index of the first item of this page among the `view` matching ones' })
  start!: number;
}
