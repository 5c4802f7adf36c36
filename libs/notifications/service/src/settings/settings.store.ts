import { type EntityManager } from 'typeorm';
import { type SettingValues } from './settings.defaults';

export interface SettingsRow {
  values: SettingValues;
  prepaid_amount: string | null;
}

/** The only SQL on `notifications.settings` for the settings RPCs. */
export const SettingsStore = {
  async get(m: EntityManager, userId: string): Promise<SettingsRow | undefined> {
    const rows: SettingsRow[] = await m.query(
      'SELECT values, prepaid_amount FROM notifications.settings WHERE user_id = $1',
      [userId],
    );
    return rows[0];
  },

  /** The stored values of each of these users that has any (one statement for a batch). */
  async valuesOf(m: EntityManager, userIds: string[]): Promise<Map<string, SettingValues>> {
    if (userIds.length === 0) return new Map();
    const rows: { user_id: string; values: SettingValues }[] = await m.query(
      'SELECT user_id, values FROM notifications.settings WHERE user_id = ANY($1::bpchar[])',
      [[...new Set(userIds)]],
    );
    return new Map(rows.map((r) => [r.user_id, r.values]));
  },

  /** Merges `values` into what is stored; a missing prepaid amount keeps the stored one. */
  async merge(
    m: EntityManager,
    userId: string,
    values: Record<string, unknown>,
    prepaidAmount: string | null,
  ): Promise<void> {
    await m.query(
      `INSERT INTO notifications.settings (user_id, values, prepaid_amount) VALUES ($1, $2::jsonb, $3)
       ON CONFLICT (user_id) DO UPDATE SET values = notifications.settings.values || EXCLUDED.values,
         prepaid_amount = COALESCE(EXCLUDED.prepaid_amount, notifications.settings.prepaid_amount), updated_at = now()`,
      [userId, JSON.stringify(values), prepaidAmount],
    );
  },
};
