import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type AuditEventMessage, avatarUrl, OBJECT_ID_PATTERN, TailedReply } from '@hub/contracts';
import { type AuditLogEventView, type AuditPage, type AuditPageRpc } from '@hub/organizations-contract';
import { preparedQuery } from '@hub/persistence';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.di';

/** The stored id of an event: its bus id when that is an object id (outbox rows), else a digest of it. */
export function auditId(msgId: string): string {
  return OBJECT_ID_PATTERN.test(msgId) ? msgId : createHash('sha256').update(msgId).digest('hex').slice(0, 24);
}

/**
 * Bytes of event JSON in one page at most (a page holds one event at least, whatever its size),
 * so that a page stays under NATS' 1 MB message limit: a page of 1,000 large events had no bound.
 */
export const AUDIT_PAGE_BYTES = 448 * 1024;

/**
 * The statement of one export page: the matching events in keyset order (newest first, after
 * the cursor). Each q field has an index in this order (migration AuditFilterIndexes), so a
 * sparse filter walks only its matches. Rows, not one `string_agg` text: Postgres spent about
 * 5 ms of CPU aggregating a page of 1,000 events against 1.5 ms sending them as rows, and the
 * service gained nothing from receiving one value (bench:audit, decision 0410).
 */
export function auditPageQuery(dto: AuditPageRpc): { sql: string; values: unknown[] } {
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
  // The ISO text gets its own name: `AS created_at` would make ORDER BY sort that text (a sort of
  // every matching row per page) instead of walking the index.
  const sql = `SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_iso, doc, octet_length(doc) AS bytes
      FROM organizations.audit_events WHERE ${where.join(' AND ')}
     ORDER BY created_at DESC, id DESC LIMIT $${values.length}`;
  return { sql, values };
}

/**
 * The events' JSON texts joined by commas, as UTF-8 bytes: each text is encoded once, straight
 * into one buffer of the size Postgres counted (no joined string, no second encoding of the
 * reply: they were most of the service's CPU per page, with the garbage they left, bench:audit).
 */
function joinedBytes(rows: { doc: string; bytes: number }[]): Buffer {
  const size = rows.reduce((sum, r) => sum + r.bytes, Math.max(0, rows.length - 1));
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const r of rows) {
    if (at > 0) out[at++] = 0x2c; // ,
    const written = out.write(r.doc, at);
    // Postgres counts bytes in the database's encoding: anything but UTF-8 takes the plain way.
    if (written !== r.bytes) return Buffer.from(rows.map((x) => x.doc).join(','));
    at += written;
  }
  return out;
}

const INSERT_EVENTS = `INSERT INTO organizations.audit_events (id, organization_id, created_at, type, author, ip, doc)
  SELECT * FROM unnest($1::char(24)[], $2::char(24)[], $3::timestamptz[], $4::varchar[], $5::varchar[], $6::varchar[], $7::text[])
  ON CONFLICT (id, created_at) DO NOTHING`;

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
      author: {
        _id: e.author._id,
        user: e.author.user,
        avatarUrl: avatarUrl(this.config.publicUrl, e.author.user),
        type: e.author.type,
      },
      ...(e.token
        ? {
            token: {
              type: 'access_token',
              id: e.token.id,
              ...(e.token.role ? { role: e.token.role } : {}),
              deleted: false,
            },
          }
        : {}),
    };
  }

  /**
   * Stores events; one already stored (same id) is left as it is. One statement whatever the
   * batch's size (a column per array), prepared once per connection: Postgres spent 38 us of CPU
   * per event against 72 us for the same batches as VALUES lists of 7 parameters per event.
   */
  async insert(events: { id: string; event: AuditEventMessage }[]): Promise<void> {
    if (events.length === 0) return;
    const columns: unknown[][] = [[], [], [], [], [], [], []];
    for (const { id, event } of events) {
      const row = [
        id,
        event.organizationId,
        event.createdAt,
        event.type,
        event.author.user,
        event.ip ?? null,
        JSON.stringify(this.toDoc(id, event)),
      ];
      row.forEach((value, k) => columns[k].push(value));
    }
    await preparedQuery(this.ds, 'organizations-audit-insert', INSERT_EVENTS, columns);
  }

  /** One page, newest first, after the cursor, at most `limit` events and `maxBytes` of JSON; every term of the filter must hold. */
  async page(dto: AuditPageRpc, maxBytes = AUDIT_PAGE_BYTES): Promise<AuditPage> {
    const { sql, values } = auditPageQuery(dto);
    const rows = (await this.ds.query(sql, values)) as {
      id: string;
      created_iso: string;
      doc: string;
      bytes: number;
    }[];
    let kept = 0;
    for (let bytes = 0; kept < rows.length; kept++) {
      bytes += rows[kept].bytes + 1;
      if (kept > 0 && bytes > maxBytes) break;
    }
    const page = kept === rows.length ? rows : rows.slice(0, kept);
    const last = page[page.length - 1];
    // More may follow when the page filled its limit or was cut by its byte budget.
    const more = rows.length === dto.limit || kept < rows.length;
    const head = {
      count: page.length,
      ...(last && more ? { last: { createdAt: last.created_iso, id: last.id } } : {}),
    };
    return new TailedReply(head, joinedBytes(page));
  }
}
