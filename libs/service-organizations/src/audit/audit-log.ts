import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import {
  type AuditEventMessage, type AuditLogEventView, type AuditPage, type AuditPageRpc, avatarUrl, OBJECT_ID_PATTERN,
} from '@hub/contracts';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.tokens';

/** The stored id of an event: its bus id when that is an object id (outbox rows), else a digest of it. */
export function auditId(msgId: string): string {
  return OBJECT_ID_PATTERN.test(msgId) ? msgId : createHash('sha256').update(msgId).digest('hex').slice(0, 24);
}

const TS = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Organizations' audit log: written by the ingest, read newest first by the export. */
@Injectable()
export class AuditLog {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
  ) {}

  /** The event as the export answers it (spec 2.9). */
  toDoc(id: string, e: AuditEventMessage): AuditLogEventView {
    return {
      _id: id,
      createdAt: new Date(e.createdAt).toISOString(),
      type: e.type,
      ...(e.data === undefined ? {} : { data: e.data }),
      message: e.message,
      ...(e.ip ? { ip: e.ip } : {}),
      ...(e.userAgent ? { userAgent: e.userAgent } : {}),
      author: { _id: e.author._id, user: e.author.user, avatarUrl: avatarUrl(this.config.publicUrl, e.author.user), type: e.author.type },
      ...(e.token ? { token: { type: 'access_token', id: e.token.id, ...(e.token.role ? { role: e.token.role } : {}), deleted: false } } : {}),
    };
  }

  /** Stores events; one already stored (same id) is left as it is. */
  async insert(events: { id: string; event: AuditEventMessage }[]): Promise<void> {
    if (events.length === 0) return;
    const values: unknown[] = [];
    const rows = events.map(({ id, event }, i) => {
      values.push(id, event.organizationId, event.createdAt, event.type, event.author.user, event.ip ?? null, JSON.stringify(this.toDoc(id, event)));
      const b = i * 7;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7})`;
    });
    await this.ds.query(
      `INSERT INTO organizations.audit_events (id, organization_id, created_at, type, author, ip, doc) VALUES ${rows.join(', ')}
       ON CONFLICT (id) DO NOTHING`,
      values,
    );
  }

  /** One page, newest first, after the cursor; every term of the filter must hold. */
  async page(dto: AuditPageRpc): Promise<AuditPage> {
    const values: unknown[] = [dto.organizationId];
    const where = ['organization_id = $1'];
    const term = (column: string, value: string): void => {
      values.push(value);
      where.push(`${column} = $${values.length}`);
    };
    dto.filter.author?.forEach((v) => term('author', v));
    dto.filter.ip?.forEach((v) => term('ip', v));
    dto.filter.type?.forEach((v) => term('type', v));
    if (dto.after) {
      values.push(dto.after.createdAt, dto.after.id);
      where.push(`(created_at, id) < ($${values.length - 1}::timestamptz, $${values.length})`);
    }
    values.push(dto.limit);
    const rows = (await this.ds.query(
      // The ISO text gets its own name: `AS created_at` would make ORDER BY sort that text (a sort of
      // every matching row per page) instead of walking the (organization_id, created_at, id) index.
      `SELECT id, ${TS} AS created_iso, doc FROM organizations.audit_events WHERE ${where.join(' AND ')}
       ORDER BY created_at DESC, id DESC LIMIT $${values.length}`,
      values,
    )) as { id: string; created_iso: string; doc: string }[];
    const last = rows[rows.length - 1];
    return {
      json: rows.map((r) => r.doc).join(','),
      count: rows.length,
      ...(last && rows.length === dto.limit ? { last: { createdAt: last.created_iso, id: last.id } } : {}),
    };
  }
}
