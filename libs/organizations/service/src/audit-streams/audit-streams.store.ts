import { type EntityManager } from 'typeorm';
import { type AuditStreamDeliveryView, type AuditStreamType } from '@hub/organizations-contract';

export interface AuditStreamRow {
  id: string;
  organization_id: string;
  type: AuditStreamType;
  settings: Record<string, string>;
  credentials: Record<string, string>;
  hints: Record<string, string>;
  filter: string[] | null;
  paused: boolean;
  cursor_tx: string;
  cursor_id: string;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
  failing_since: Date | null;
  failing: boolean;
  last_delivered_at: Date | null;
  dropped: string;
  created_at: Date;
}

export interface NewStream {
  id: string;
  organizationId: string;
  type: AuditStreamType;
  settings: Record<string, string>;
  credentials: Record<string, string>;
  hints: Record<string, string>;
  filter: string[] | null;
}

export interface DeliveryEntry {
  kind: AuditStreamDeliveryView['kind'];
  records: number;
  firstEventId: string | null;
  lastEventId: string | null;
  ok: boolean;
  status: number | null;
  error: string | null;
  latencyMs: number;
}

/** The streams of organizations and their delivery logs (schema `organizations`). */
export const AuditStreamsStore = {
  list(m: EntityManager, organizationId: string): Promise<AuditStreamRow[]> {
    return m.query(`SELECT * FROM organizations.audit_streams WHERE organization_id = $1 ORDER BY created_at, id`, [
      organizationId,
    ]);
  },

  async get(m: EntityManager, organizationId: string, id: string): Promise<AuditStreamRow | null> {
    const rows = (await m.query(`SELECT * FROM organizations.audit_streams WHERE organization_id = $1 AND id = $2`, [
      organizationId,
      id,
    ])) as AuditStreamRow[];
    return rows[0] ?? null;
  },

  /**
   * Locks the organization's streams to the end of the transaction `m` (the caller's): two creates
   * at once count one after the other.
   */
  async lockAndCount(m: EntityManager, organizationId: string): Promise<number> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtext('audit-streams:' || $1))`, [organizationId]);
    const [{ n }] = (await m.query(
      `SELECT count(*)::int AS n FROM organizations.audit_streams WHERE organization_id = $1`,
      [organizationId],
    )) as { n: number }[];
    return n;
  },

  /**
   * A new stream starts with the events of transactions still running: nothing recorded from its
   * creation on is missed.
   */
  async insert(m: EntityManager, s: NewStream): Promise<AuditStreamRow> {
    const rows = (await m.query(
      `INSERT INTO organizations.audit_streams (id, organization_id, type, settings, credentials, hints, filter, cursor_tx)
       VALUES ($1, $2, $3, $4, $5, $6, $7, pg_snapshot_xmin(pg_current_snapshot())::text::bigint - 1)
       RETURNING *`,
      [s.id, s.organizationId, s.type, s.settings, s.credentials, s.hints, s.filter],
    )) as AuditStreamRow[];
    return rows[0];
  },

  /** Replaces the destination; a change of destination clears the failure (the next batch tells). */
  async replace(
    m: EntityManager,
    organizationId: string,
    id: string,
    d: Omit<NewStream, 'id' | 'organizationId'>,
  ): Promise<AuditStreamRow | null> {
    const rows = (await m.query(
      `UPDATE organizations.audit_streams
          SET type = $3, settings = $4, credentials = $5, hints = $6, filter = $7, attempts = 0,
              next_attempt_at = NULL, last_error = NULL, failing_since = NULL, failing = false, updated_at = now()
        WHERE organization_id = $1 AND id = $2 RETURNING *`,
      [organizationId, id, d.type, d.settings, d.credentials, d.hints, d.filter],
    )) as [AuditStreamRow[], number];
    return rows[0][0] ?? null;
  },

  async remove(m: EntityManager, organizationId: string, id: string): Promise<boolean> {
    const [, count] = (await m.query(`DELETE FROM organizations.audit_streams WHERE organization_id = $1 AND id = $2`, [
      organizationId,
      id,
    ])) as [unknown, number];
    return count > 0;
  },

  /** Pause keeps the position (events wait, within the retention window); resume retries at once. */
  async setPaused(
    m: EntityManager,
    organizationId: string,
    id: string,
    paused: boolean,
  ): Promise<AuditStreamRow | null> {
    const rows = (await m.query(
      `UPDATE organizations.audit_streams SET paused = $3, next_attempt_at = NULL, updated_at = now()
        WHERE organization_id = $1 AND id = $2 RETURNING *`,
      [organizationId, id, paused],
    )) as [AuditStreamRow[], number];
    return rows[0][0] ?? null;
  },

  async logDelivery(m: EntityManager, streamId: string, e: DeliveryEntry): Promise<void> {
    await m.query(
      `INSERT INTO organizations.audit_stream_deliveries
         (stream_id, kind, records, first_event_id, last_event_id, ok, status, error, latency_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [streamId, e.kind, e.records, e.firstEventId, e.lastEventId, e.ok, e.status, e.error, e.latencyMs],
    );
  },

  async deliveries(m: EntityManager, streamId: string, limit: number): Promise<AuditStreamDeliveryView[]> {
    const rows = (await m.query(
      `SELECT * FROM organizations.audit_stream_deliveries WHERE stream_id = $1 ORDER BY id DESC LIMIT $2`,
      [streamId, limit],
    )) as {
      at: Date;
      kind: AuditStreamDeliveryView['kind'];
      records: number;
      first_event_id: string | null;
      last_event_id: string | null;
      ok: boolean;
      status: number | null;
      error: string | null;
      latency_ms: number;
    }[];
    return rows.map((r) => ({
      at: new Date(r.at).toISOString(),
      kind: r.kind,
      records: r.records,
      firstEventId: r.first_event_id,
      lastEventId: r.last_event_id,
      ok: r.ok,
      status: r.status,
      error: r.error,
      latencyMs: r.latency_ms,
    }));
  },
};
