import { type EntityManager } from 'typeorm';
import { type RecoveryRow, RecoveryStore } from './recovery.store';

/**
 * A running recovery's counts from its rows; none pending: done, and the counts kept in its row
 * (decision 0502). Shared by the start (a running one refuses another) and the read.
 */
export async function refreshRecovery(m: EntityManager, r: RecoveryRow): Promise<RecoveryRow> {
  if (r.state !== 'running') return r;
  const c = await RecoveryStore.counts(m, r.id);
  const counted = { ...r, succeeded: c.succeeded, failed: c.failed, sent: c.succeeded + c.failed };
  if (c.pending > 0) return counted;
  return (await RecoveryStore.finish(m, r.id, counted)) ?? counted;
}
