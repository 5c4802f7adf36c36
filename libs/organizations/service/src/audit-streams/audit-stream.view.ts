import { type AuditStreamView } from '@hub/organizations-contract';
import { type AuditStreamRow } from './audit-streams.store';

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

/** The stream as its admins see it: settings in clear, credentials as hints only. */
export function toAuditStreamView(r: AuditStreamRow): AuditStreamView {
  return {
    id: r.id,
    type: r.type,
    state: r.paused ? 'paused' : r.failing ? 'failing' : 'active',
    ...r.settings,
    hints: { ...r.hints },
    ...(r.filter ? { filter: r.filter } : {}),
    lastError: r.last_error,
    failingSince: iso(r.failing_since),
    lastDeliveredAt: iso(r.last_delivered_at),
    dropped: Number(r.dropped),
    createdAt: new Date(r.created_at).toISOString(),
  };
}
