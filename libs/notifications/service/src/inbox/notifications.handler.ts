import { type RequestContext } from '@hub/contracts';
import {
  type BulkNotificationsResult,
  BulkNotificationsRpc,
  ListNotificationsRpc,
  type NotificationSettingsView,
  type NotificationsPage,
  NotificationsRpc,
  OwnSettingsRpc,
  UpdateNotificationSettingsDto,
  UpdateWatchDto,
  type WatchListView,
} from '@hub/notifications-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { GetNotificationSettingsUseCase } from '../settings/get-notification-settings.use-case';
import { UpdateNotificationSettingsUseCase } from '../settings/update-notification-settings.use-case';
import { GetWatchListUseCase } from '../watch/get-watch-list.use-case';
import { UpdateWatchListUseCase } from '../watch/update-watch-list.use-case';
import { DeleteNotificationsUseCase } from './delete-notifications.use-case';
import { ListNotificationsUseCase } from './list-notifications.use-case';
import { MarkNotificationsUseCase } from './mark-notifications.use-case';

/** Every RPC acts on the caller's own rows (ctx.userId): another user's data is never reachable. */
@RpcController()
export class NotificationsHandler {
  constructor(
    private readonly listNotifications: ListNotificationsUseCase,
    private readonly markNotifications: MarkNotificationsUseCase,
    private readonly deleteNotifications: DeleteNotificationsUseCase,
    private readonly getSettings: GetNotificationSettingsUseCase,
    private readonly updateSettings: UpdateNotificationSettingsUseCase,
    private readonly getWatchList: GetWatchListUseCase,
    private readonly updateWatchList: UpdateWatchListUseCase,
  ) {}

  @RpcHandler(NotificationsRpc.List)
  onList(dto: ListNotificationsRpc, ctx: RequestContext): Promise<NotificationsPage> {
    return this.listNotifications.execute(dto, ctx);
  }

  @RpcHandler(NotificationsRpc.Mark)
  onMark(dto: BulkNotificationsRpc, ctx: RequestContext): Promise<BulkNotificationsResult> {
    return this.markNotifications.execute(dto, ctx);
  }

  @RpcHandler(NotificationsRpc.Delete)
  onDelete(dto: BulkNotificationsRpc, ctx: RequestContext): Promise<BulkNotificationsResult> {
    return this.deleteNotifications.execute(dto, ctx);
  }

  @RpcHandler(NotificationsRpc.GetSettings)
  onGetSettings(_dto: OwnSettingsRpc, ctx: RequestContext): Promise<NotificationSettingsView> {
    return this.getSettings.execute(ctx);
  }

  @RpcHandler(NotificationsRpc.UpdateSettings)
  onUpdateSettings(dto: UpdateNotificationSettingsDto, ctx: RequestContext): Promise<NotificationSettingsView> {
    return this.updateSettings.execute(dto, ctx);
  }

  @RpcHandler(NotificationsRpc.GetWatch)
  onGetWatch(_dto: OwnSettingsRpc, ctx: RequestContext): Promise<WatchListView> {
    return this.getWatchList.execute(ctx);
  }

  @RpcHandler(NotificationsRpc.UpdateWatch)
  onUpdateWatch(dto: UpdateWatchDto, ctx: RequestContext): Promise<WatchListView> {
    return this.updateWatchList.execute(dto, ctx);
  }
}
