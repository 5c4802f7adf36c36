import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type NotificationSettingsView, type RequestContext, type UpdateNotificationSettingsDto } from '@hub/contracts';
import { callerOf } from '../inbox/inbox-filters';
import { NOTIFICATIONS_DS } from '../notifications.tokens';
import { type SettingValues, withDefaults } from './settings.defaults';
import { PrepaidAmountRequiredError } from './settings.errors';

/** A user's notification settings: a partial update merges into what is stored. */
@Injectable()
export class SettingsUseCases {
  constructor(@InjectDataSource(NOTIFICATIONS_DS) private readonly ds: DataSource) {}

  async get(ctx: RequestContext): Promise<NotificationSettingsView> {
    const rows: { values: SettingValues; prepaid_amount: string | null }[] = await this.ds.query(
      'SELECT values, prepaid_amount FROM notifications.settings WHERE user_id = $1',
      [callerOf(ctx)],
    );
    return { notifications: withDefaults(rows[0]?.values ?? {}), prepaidAmount: rows[0]?.prepaid_amount ?? null };
  }

  async update(dto: UpdateNotificationSettingsDto, ctx: RequestContext): Promise<NotificationSettingsView> {
    const userId = callerOf(ctx);
    if (dto.notifications.launch_prepaid_credits === true && !dto.prepaidAmount) throw new PrepaidAmountRequiredError();
    const values: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(dto.notifications)) if (v !== undefined) values[k] = v;
    await this.ds.query(
      `INSERT INTO notifications.settings (user_id, values, prepaid_amount) VALUES ($1, $2::jsonb, $3)
       ON CONFLICT (user_id) DO UPDATE SET values = notifications.settings.values || EXCLUDED.values,
         prepaid_amount = COALESCE(EXCLUDED.prepaid_amount, notifications.settings.prepaid_amount), updated_at = now()`,
      [userId, JSON.stringify(values), dto.prepaidAmount ?? null],
    );
    return this.get(ctx);
  }
}
