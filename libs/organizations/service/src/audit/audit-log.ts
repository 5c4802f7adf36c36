import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type AuditEventMessage, avatarUrl, OBJECT_ID_PATTERN, TailedReply } from '@hub/contracts';
import { type AuditLogEventView, type AuditPage, type AuditPageRpc } from '@hub/organizations-contract';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.di';
import { type AuditEventColumns, AuditLogStore } from './audit-log.store';

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

  /** Stores events; one already stored (same id) is left as it is. */
  async insert(events: { id: string; event: AuditEventMessage }[]): Promise<void> {
    if (events.length === 0) return;
    const columns: AuditEventColumns = [[], [], [], [], [], [], []];
    for (const { id, event } of events) {
      columns[0].push(id);
      columns[1].push(event.organizationId);
      columns[2].push(event.createdAt);
      columns[3].push(event.type);
      columns[4].push(event.author.user);
      columns[5].push(event.ip ?? null);
      columns[6].push(JSON.stringify(this.toDoc(id, event)));
    }
    await AuditLogStore.insert(this.ds.manager, columns);
  }

  /** One page, newest first, after the cursor, at most `limit` events and `maxBytes` of JSON; every term of the filter must hold. */
  async page(dto: AuditPageRpc, maxBytes = AUDIT_PAGE_BYTES): Promise<AuditPage> {
    const rows = await AuditLogStore.page(this.ds.manager, dto);
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
