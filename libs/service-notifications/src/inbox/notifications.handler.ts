import {
  type BulkNotificationsResult,
  BulkNotificationsRpc,
  ListNotificationsRpc,
  type NotificationSettingsView,
  type NotificationsPage,
  NotificationsRpc,
  OwnSettingsRpc,
  type RequestContext,
  UpdateNotificationSettingsDto,
  UpdateWatchDto,
  type WatchListView,
} from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { SettingsUseCases } from '../settings/settings.use-cases';
import { WatchUseCases } from '../watch/watch.use-cases';
import { InboxUseCases } from './inbox.use-cases';

/** Every RPC acts on the caller's own rows (ctx.userId): another user's data is never reachable. */
@RpcController()
export class NotificationsHandler {
  constructor(
    private readonly inbox: InboxUseCases,
    private readonly settings: SettingsUseCases,
    private readonly watch: WatchUseCases,
  ) {}

  @RpcHandler(NotificationsRpc.List)
  onList(dto: ListNotificationsRpc, ctx: RequestContext): Promise<NotificationsPage> {
    return this.inbox.list(dto, ctx);
  }

  @RpcHandler(NotificationsRpc.Mark)
  onMark(dto: BulkNotificationsRpc, ctx: RequestContext): Promise<BulkNotificationsResult> {
    return this.inbox.mark(dto, ctx);
  }

  @RpcHandler(NotificationsRpc.Delete)
  onDelete(dto: BulkNotificationsRpc, ctx: RequestContext): Promise<BulkNotificationsResult> {
    return this.inbox.delete(dto, ctx);
  }

  @RpcHandler(NotificationsRpc.GetSettings)
  onGetSettings(_dto: OwnSettingsRpc, ctx: RequestContext): Promise<NotificationSettingsView> {
    return this.settings.get(ctx);
  }

  @RpcHandler(NotificationsRpc.UpdateSettings)
  onUpdateSettings(dto: UpdateNotificationSettingsDto, ctx: RequestContext): Promise<NotificationSettingsView> {
    return this.settings.update(dto, ctx);
  }

  @RpcHandler(NotificationsRpc.GetWatch)
  onGetWatch(_dto: OwnSettingsRpc, ctx: RequestContext): Promise<WatchListView> {
    return this.watch.get(ctx);
  }

  @RpcHandler(NotificationsRpc.UpdateWatch)
  onUpdateWatch(dto: UpdateWatchDto, ctx: RequestContext): Promise<WatchListView> {
    return this.watch.update(dto, ctx);
  }
}
