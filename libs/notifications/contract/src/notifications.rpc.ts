import { rpc } from '@hub/contracts';
import { type BulkNotificationsResult, BulkNotificationsRpc, ListNotificationsRpc } from './notification-bodies.dto';
import { type NotificationsPage } from './notification-items.views';
import { type NotificationSettingsView, UpdateNotificationSettingsDto } from './notification-settings.dto';
import { OwnSettingsRpc, UpdateWatchDto, type WatchListView } from './watch.dto';

/** The notifications service's RPCs; every one acts on the caller's own data (ctx.userId). */
export const NotificationsRpc = {
  List: rpc<ListNotificationsRpc, NotificationsPage>('notifications.inbox.list', ListNotificationsRpc),
  Mark: rpc<BulkNotificationsRpc, BulkNotificationsResult>('notifications.inbox.mark', BulkNotificationsRpc),
  Delete: rpc<BulkNotificationsRpc, BulkNotificationsResult>('notifications.inbox.delete', BulkNotificationsRpc),
  GetSettings: rpc<OwnSettingsRpc, NotificationSettingsView>('notifications.settings.get', OwnSettingsRpc),
  UpdateSettings: rpc<UpdateNotificationSettingsDto, NotificationSettingsView>(
    'notifications.settings.update',
    UpdateNotificationSettingsDto,
  ),
  GetWatch: rpc<OwnSettingsRpc, WatchListView>('notifications.watch.get', OwnSettingsRpc),
  UpdateWatch: rpc<UpdateWatchDto, WatchListView>('notifications.watch.update', UpdateWatchDto),
} as const;
