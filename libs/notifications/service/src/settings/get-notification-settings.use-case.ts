import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type NotificationSettingsView } from '@hub/notifications-contract';
import { callerOf } from '../inbox/inbox-filters';
import { NOTIFICATIONS_DS } from '../notifications.di';
import { SettingsStore } from './settings.store';
import { toSettingsView } from './settings.view';

/** The caller's notification settings, with the defaults for those never set. */
@Injectable()
export class GetNotificationSettingsUseCase {
  constructor(@InjectDataSource(NOTIFICATIONS_DS) private readonly ds: DataSource) {}

  async execute(ctx: RequestContext): Promise<NotificationSettingsView> {
    return toSettingsView(await SettingsStore.get(this.ds.manager, callerOf(ctx)));
  }
}
