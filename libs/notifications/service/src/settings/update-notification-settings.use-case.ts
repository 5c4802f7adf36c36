import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import {
  type NotificationSettingsView,
  type UpdateNotificationSettingsDto,
  NotificationsRpc,
} from '@hub/notifications-contract';
import { callerOf } from '../inbox/caller';
import { NOTIFICATIONS_DS } from '../notifications.di';
import { PrepaidAmountRequiredError } from './settings.errors';
import { SettingsStore } from './settings.store';
import { toSettingsView } from './settings.view';
import { RpcHandler } from '@hub/messaging';

/** A partial update of the caller's settings: it merges into what is stored. */
@Injectable()
export class UpdateNotificationSettingsUseCase {
  constructor(@InjectDataSource(NOTIFICATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(NotificationsRpc.UpdateSettings)
  async execute(dto: UpdateNotificationSettingsDto, ctx: RequestContext): Promise<NotificationSettingsView> {
    const userId = callerOf(ctx);
    if (dto.notifications.launch_prepaid_credits === true && !dto.prepaidAmount) throw new PrepaidAmountRequiredError();
    const values: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(dto.notifications)) if (v !== undefined) values[k] = v;
    await SettingsStore.merge(this.ds.manager, userId, values, dto.prepaidAmount ?? null);
    return toSettingsView(await SettingsStore.get(this.ds.manager, userId));
  }
}
