import { type NotificationSettingsView } from '@hub/notifications-contract';
import { withDefaults } from './settings.defaults';
import { type SettingsRow } from './settings.store';

/** What the user sees: every setting (defaults for those never set) and the prepaid amount. */
export function toSettingsView(row: SettingsRow | undefined): NotificationSettingsView {
  return { notifications: withDefaults(row?.values ?? {}), prepaidAmount: row?.prepaid_amount ?? null };
}
