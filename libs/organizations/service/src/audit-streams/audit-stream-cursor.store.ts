import { type EntityManager } from 'typeorm';
import { type AuditStreamRow } from './audit-streams.store';

export interface LeasedStream extends AuditStreamRow {
  organization_name: string;
  /** No retry pause is running. */
  due: boolean;
}

export interface PendingEvent {
  id: string;
  tx: string;
  created_iso: string;
  type: string;
  doc: string;
  /** Waited past the retention window: dropped, not sent. */
  expired: boolean;
}

/** A stream's position after the last event it handled. */
export interface Position {
  tx: string;
  id: string;
}

/**
 * What the delivery loop reads and writes: leases (one replica serves a stream at a time), the
 * events after a stream's position, and the position's moves, each fenced by the lease and the
 * position it started from (a replica that lost its lease moves nothing).
 */
export const AuditStreamCursorStore = {
  /** Takes (or renews) the leases of active streams nobody else holds; returns them. */
  claim(m: EntityManager, owner: string, leaseMs: number, limit: number): Promise<LeasedStream[]> {
    return m
      .query(
        `UPDATE organizations.audit_streams s
          SET lease_owner = $1, lease_until = now() + make_interval(secs => $2::float8 / 1000)
        WHERE s.id IN (SELECT id FROM organizations.audit_streams
                        WHERE NOT paused AND (lease_owner = $1 OR lease_until IS NULL OR lease_until < now())
                        ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING s.*, (s.next_attempt_at IS NULL OR s.next_attempt_at <= now()) AS due,
          (SELECT o.name FROM organizations.organizations o WHERE o.id = s.organization_id) AS organization_name`,
        [owner, leaseMs, limit],
      )
      .then((r: [LeasedStream[], number]) => r[0]);
  },

  /** Gives the leases back (a clean shutdown): another replica takes the streams at once. */
  async release(m: EntityManager, owner: string): Promise<void> {
    await m.query(
      `UPDATE organizations.audit_streams SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1`,
      [owner],
    );
  },

  /**
   * The next events of the organization after the position, in the order they were stored, only
   * from transactions older than every one still running: an event committed late has a smaller
   * `tx` than the position could ever pass before it commits.
   */
  pending(m: EntityManager, s: AuditStreamRow, limit: number, retentionDays: number): Promise<PendingEvent[]> {
    return m.query(
      `SELECT id, tx::text AS tx, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_iso,
              type, doc, created_at < now() - make_interval(secs => $5::float8 * 86400) AS expired
         FROM organizations.audit_events
        WHERE organization_id = $1 AND tx IS NOT NULL AND (tx, id) > ($2::bigint, $3::char(24))
          AND tx < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
        ORDER BY tx, id LIMIT $4`,
      [s.organization_id, s.cursor_tx, s.cursor_id, limit, retentionDays],
    );
  },

  /**
   * Moves the position after a delivered (or dropped) run of events, in the caller's transaction;
   * false when the lease or the position moved on (nothing changed then).
   */
  async advance(
    m: EntityManager,
    s: AuditStreamRow,
    owner: string,
    to: Position,
    change: { delivered?: boolean; dropped?: number },
  ): Promise<boolean> {
    const [, count] = (await m.query(
      `UPDATE organizations.audit_streams
          SET cursor_tx = $4, cursor_id = $5, dropped = dropped + $6,
              last_delivered_at = CASE WHEN $7 THEN now() ELSE last_delivered_at END,
              attempts = CASE WHEN $7 THEN 0 ELSE attempts END,
              next_attempt_at = CASE WHEN $7 THEN NULL ELSE next_attempt_at END,
              last_error = CASE WHEN $7 THEN NULL ELSE last_error END,
              failing_since = CASE WHEN $7 THEN NULL ELSE failing_since END,
              failing = CASE WHEN $7 THEN false ELSE failing END
        WHERE id = $1 AND lease_owner = $2 AND cursor_tx = $3::bigint AND cursor_id = $8`,
      [s.id, owner, s.cursor_tx, to.tx, to.id, change.dropped ?? 0, change.delivered ?? false, s.cursor_id],
    )) as [unknown, number];
    return count > 0;
  },

  /**
   * Records a failed batch: the next try after `retryMs`; failing once it has failed for
   * `failingAfterS` without a success. Answers whether this failure made it failing, or null when
   * the lease moved on.
   */
  async failed(
    m: EntityManager,
    s: AuditStreamRow,
    owner: string,
    error: string | null,
    retryMs: number,
    failingAfterS: number,
  ): Promise<{ turnedFailing: boolean } | null> {
    const [rows] = (await m.query(
      `UPDATE organizations.audit_streams
          SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => $3::float8 / 1000),
              last_error = $4, failing_since = COALESCE(failing_since, now()),
              failing = failing OR COALESCE(failing_since, now()) <= now() - make_interval(secs => $5::float8)
        WHERE id = $1 AND lease_owner = $2
        RETURNING failing, $6::boolean AS was_failing`,
      [s.id, owner, retryMs, error, failingAfterS, s.failing],
    )) as [{ failing: boolean; was_failing: boolean }[], number];
    if (rows.length === 0) return null;
    return { turnedFailing: rows[0].failing && !rows[0].was_failing };
  },

  /** Delivery log entries older than the retention window go. */
  async pruneDeliveries(m: EntityManager, retentionDays: number): Promise<void> {
    await m.query(
      `DELETE FROM organizations.audit_stream_deliveries WHERE at < now() - make_interval(secs => $1::float8 * 86400)`,
      [retentionDays],
    );
  },
};
