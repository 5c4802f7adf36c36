import { NOTIFICATION_SETTING_KEYS, type NotificationSettingKey } from '@hub/notifications-contract';

/** Off until the user asks: things that cost money or are marketing. Everything else is on. */
const OFF_BY_DEFAULT: ReadonlySet<NotificationSettingKey> = new Set([
  'launch_prepaid_credits',
  'announcements',
  'daily_papers_digest',
]);

export type SettingValues = Partial<Record<NotificationSettingKey, boolean>> & { product_updates_after?: string };

export function withDefaults(stored: SettingValues): Record<string, boolean | string> {
  const out: Record<string, boolean | string> = {};
  for (const k of NOTIFICATION_SETTING_KEYS) out[k] = stored[k] ?? !OFF_BY_DEFAULT.has(k);
  if (stored.product_updates_after) out['product_updates_after'] = stored.product_updates_after;
  return out;
}

/** One setting of a user whose row may be missing (null: defaults). */
export function settingOf(stored: SettingValues | null | undefined, key: NotificationSettingKey): boolean {
  return stored?.[key] ?? !OFF_BY_DEFAULT.has(key);
}
