import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import { type AuditStreamDeliveryView, type AuditStreamType } from '@hub/organizations-contract';
import { ORGANIZATIONS_DS } from '../organizations.di';

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
@Injectable()
export class AuditStreamsStore {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  list(organizationId: string): Promise<AuditStreamRow[]> {
    return this.ds.query(
      `SELECT * FROM organizations.audit_streams WHERE organization_id = $1 ORDER BY created_at, id`,
      [organizationId],
    );
  }

  async get(organizationId: string, id: string, m: EntityManager = this.ds.manager): Promise<AuditStreamRow | null> {
    const rows = (await m.query(`SELECT * FROM organizations.audit_streams WHERE organization_id = $1 AND id = $2`, [
      organizationId,
      id,
    ])) as AuditStreamRow[];
    return rows[0] ?? null;
  }

  /**
   * Inserts a stream when the organization has fewer than `max`: the count and the insert in one
   * transaction, the organization's streams locked, so two creates at once cannot both pass.
   * A new stream starts with the events of transactions still running: nothing recorded from
   * its creation on is missed. Returns null when the organization is full.
   */
  async insertUnder(s: NewStream, max: number): Promise<AuditStreamRow | null> {
    return this.ds.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtext('audit-streams:' || $1))`, [s.organizationId]);
      const [{ n }] = (await m.query(
        `SELECT count(*)::int AS n FROM organizations.audit_streams WHERE organization_id = $1`,
        [s.organizationId],
      )) as { n: number }[];
      if (n >= max) return null;
      const rows = (await m.query(
        `INSERT INTO organizations.audit_streams (id, organization_id, type, settings, credentials, hints, filter, cursor_tx)
         VALUES ($1, $2, $3, $4, $5, $6, $7, pg_snapshot_xmin(pg_current_snapshot())::text::bigint - 1)
         RETURNING *`,
        [s.id, s.organizationId, s.type, s.settings, s.credentials, s.hints, s.filter],
      )) as AuditStreamRow[];
      return rows[0];
    });
  }

  /** Replaces the destination; a change of destination clears the failure (the next batch tells). */
  async replace(
    organizationId: string,
    id: string,
    d: Omit<NewStream, 'id' | 'organizationId'>,
  ): Promise<AuditStreamRow | null> {
    const rows = (await this.ds.query(
      `UPDATE organizations.audit_streams
          SET type = $3, settings = $4, credentials = $5, hints = $6, filter = $7, attempts = 0,
              next_attempt_at = NULL, last_error = NULL, failing_since = NULL, failing = false, updated_at = now()
        WHERE organization_id = $1 AND id = $2 RETURNING *`,
      [organizationId, id, d.type, d.settings, d.credentials, d.hints, d.filter],
    )) as [AuditStreamRow[], number];
    return rows[0][0] ?? null;
  }

  async remove(organizationId: string, id: string): Promise<boolean> {
    const [, count] = (await this.ds.query(
      `DELETE FROM organizations.audit_streams WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    )) as [unknown, number];
    return count > 0;
  }

  /** Pause keeps the position (events wait, within the retention window); resume retries at once. */
  async setPaused(organizationId: string, id: string, paused: boolean): Promise<AuditStreamRow | null> {
    const rows = (await this.ds.query(
      `UPDATE organizations.audit_streams SET paused = $3, next_attempt_at = NULL, updated_at = now()
        WHERE organization_id = $1 AND id = $2 RETURNING *`,
      [organizationId, id, paused],
    )) as [AuditStreamRow[], number];
    return rows[0][0] ?? null;
  }

  async logDelivery(streamId: string, e: DeliveryEntry, m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(
      `INSERT INTO organizations.audit_stream_deliveries
         (stream_id, kind, records, first_event_id, last_event_id, ok, status, error, latency_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [streamId, e.kind, e.records, e.firstEventId, e.lastEventId, e.ok, e.status, e.error, e.latencyMs],
    );
  }

  async deliveries(streamId: string, limit: number): Promise<AuditStreamDeliveryView[]> {
    const rows = (await this.ds.query(
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
  }
}
