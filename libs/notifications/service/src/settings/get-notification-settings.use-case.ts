import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type NotificationSettingsView, NotificationsRpc, type OwnSettingsRpc } from '@hub/notifications-contract';
import { callerOf } from '../inbox/caller';
import { NOTIFICATIONS_DS } from '../notifications.di';
import { SettingsStore } from './settings.store';
import { toSettingsView } from './settings.view';
import { RpcHandler } from '@hub/messaging';

/** The caller's notification settings, with the defaults for those never set. */
@Injectable()
export class GetNotificationSettingsUseCase {
  constructor(@InjectDataSource(NOTIFICATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(NotificationsRpc.GetSettings)
  async execute(_dto: OwnSettingsRpc, ctx: RequestContext): Promise<NotificationSettingsView> {
    return toSettingsView(await SettingsStore.get(this.ds.manager, callerOf(ctx)));
  }
}
