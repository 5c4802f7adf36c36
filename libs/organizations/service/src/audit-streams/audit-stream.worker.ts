import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.di';
import { AuditStreamAccess } from './audit-stream-access';
import {
  AuditStreamCursorStore,
  type LeasedStream,
  type PendingEvent,
  type Position,
} from './audit-stream-cursor.store';
import { AuditStreamsStore, type DeliveryEntry } from './audit-streams.store';
import { AuditSenders } from './destinations/audit-senders';
import { type StreamRecord } from './destinations/stream-record';
import { AuditStreamHealth } from './audit-stream-health';
import { streamBackoffMs } from './stream-backoff';

/** Streams one replica serves at most per round. */
const STREAMS_PER_ROUND = 100;
const PRUNE_EVERY_MS = 10 * 60_000;

/** Stable per content: a retry of the same records has the same id, a grown batch another. */
function batchId(streamId: string, records: { id: string }[]): string {
  const digest = createHash('sha256')
    .update(`${streamId}:${records[0].id}:${records[records.length - 1].id}:${records.length}`)
    .digest('hex');
  return `msg_${digest.slice(0, 32)}`;
}

/**
 * The delivery loop (decision 0411): each round, this replica leases the streams nobody holds
 * (a row lease in Postgres, renewed every round, taken over when it lapses), and for each reads
 * the events after its position, sends them in order as one batch when a full batch waits or the
 * flush interval has passed, and moves the position only once the destination took them: at
 * least once, whatever dies when.
 */
@Injectable()
export class AuditStreamWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditStreamWorker');
  private readonly owner = `${hostname().slice(0, 32)}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly lastFlush = new Map<string, number>();
  /** Streams being served: a slow destination holds its own stream, never the others' rounds. */
  private readonly serving = new Map<string, Promise<void>>();
  private timer?: NodeJS.Timeout;
  private round?: Promise<void>;
  private stopped = false;
  private lastPrune = 0;

  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    private readonly access: AuditStreamAccess,
    private readonly senders: AuditSenders,
    private readonly health: AuditStreamHealth,
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
  ) {}

  /** A round every quarter of the flush interval (100 ms..1 s): the lease is renewed far more often than it lapses. */
  private get tickMs(): number {
    return Math.max(100, Math.min(1000, Math.floor(this.config.HUB_AUDIT_STREAM_FLUSH_MS / 4)));
  }

  onApplicationBootstrap(): void {
    // Without a key no stream can exist, nor be opened.
    if (!this.config.auditStreamBox()) return;
    this.schedule();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round?.catch(() => undefined);
    await Promise.all(this.serving.values());
    await AuditStreamCursorStore.release(this.ds.manager, this.owner).catch(() => undefined);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.round = this.runRound()
        .catch((err: unknown) => this.logger.warn({ err }, 'audit stream round failed'))
        .finally(() => this.schedule());
    }, this.tickMs);
  }

  private async runRound(): Promise<void> {
    // Renews the leases of the streams being served too.
    const streams = await AuditStreamCursorStore.claim(
      this.ds.manager,
      this.owner,
      this.config.HUB_AUDIT_STREAM_LEASE_MS,
      STREAMS_PER_ROUND,
    );
    for (const s of streams) {
      if (this.serving.has(s.id)) continue;
      const run = this.serve(s)
        .catch((err: unknown) => this.logger.warn({ err, stream: s.id }, 'audit stream step failed'))
        .finally(() => this.serving.delete(s.id));
      this.serving.set(s.id, run);
    }
    if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      await AuditStreamCursorStore.pruneDeliveries(this.ds.manager, this.config.HUB_AUDIT_STREAM_RETENTION_DAYS);
    }
  }

  /**
   * Sends full batches one after the other until fewer than a batch wait (or a send fails, or the
   * lease moved: `advance` checks it). Each stream is served on its own, so one catching up holds
   * no other; the rounds go on renewing the leases meanwhile. It used to stop after 20 batches
   * until the next round, which capped a stream near 2,000 events/s (bench:audit, issue 39).
   */
  private async serve(stream: LeasedStream): Promise<void> {
    if (!stream.due) return;
    let s: LeasedStream | null = stream;
    while (s && !this.stopped) s = await this.step(s);
  }

  /** One batch (or one run of dropped events); the stream as it is after it, or null to stop this round. */
  private async step(s: LeasedStream): Promise<LeasedStream | null> {
    const max = this.config.HUB_AUDIT_STREAM_BATCH_MAX;
    const events = await AuditStreamCursorStore.pending(
      this.ds.manager,
      s,
      max,
      this.config.HUB_AUDIT_STREAM_RETENTION_DAYS,
    );
    if (events.length === 0) return null;
    const expired = events.findIndex((e) => !e.expired);
    if (expired !== 0) return this.drop(s, expired === -1 ? events : events.slice(0, expired));
    const since = Date.now() - (this.lastFlush.get(s.id) ?? 0);
    if (events.length < max && since < this.config.HUB_AUDIT_STREAM_FLUSH_MS) return null;
    const wanted = s.filter ? events.filter((e) => s.filter?.includes(e.type.split('.')[0])) : events;
    const last = events[events.length - 1];
    const to = { tx: last.tx, id: last.id };
    if (wanted.length === 0) {
      // Nothing the filter wants: the position moves on, the delivery log stays quiet.
      return (await this.advance(s, to, null, {})) ? this.moved(s, to) : null;
    }
    const records: StreamRecord[] = wanted.map((e) => ({ id: e.id, createdAt: e.created_iso, doc: e.doc }));
    this.lastFlush.set(s.id, Date.now());
    const r = await this.senders.send(this.access.open(s, s.organization_name), records, batchId(s.id, records));
    const entry = {
      kind: 'batch' as const,
      records: records.length,
      firstEventId: records[0].id,
      lastEventId: records[records.length - 1].id,
      ok: r.ok,
      status: r.status,
      error: r.error,
      latencyMs: r.latencyMs,
    };
    if (!r.ok) {
      const retryMs = streamBackoffMs(s.attempts + 1);
      const failingAfter = this.config.HUB_AUDIT_STREAM_FAILING_AFTER_S;
      const error = r.error ?? 'failed';
      if (await this.failed(s, entry, retryMs, failingAfter, (m) => this.health.becameFailing(m, s, error)))
        this.health.published();
      return null;
    }
    const recovered = s.failing ? (m: EntityManager) => this.health.recovered(m, s) : undefined;
    if (!(await this.advance(s, to, entry, { delivered: true }, recovered))) return null;
    if (recovered) this.health.published();
    return events.length < max ? null : this.moved(s, to, true);
  }

  /** Events that waited past the retention window: the position moves past them and the log says so. */
  private async drop(s: LeasedStream, events: PendingEvent[]): Promise<LeasedStream | null> {
    const last = events[events.length - 1];
    const to = { tx: last.tx, id: last.id };
    const entry = {
      kind: 'dropped' as const,
      records: events.length,
      firstEventId: events[0].id,
      lastEventId: last.id,
      ok: false,
      status: null,
      error: `${events.length} events waited longer than ${this.config.HUB_AUDIT_STREAM_RETENTION_DAYS} days and were dropped`,
      latencyMs: 0,
    };
    this.logger.warn({ stream: s.id, dropped: events.length }, 'audit stream dropped events past retention');
    return (await this.advance(s, to, entry, { dropped: events.length })) ? this.moved(s, to) : null;
  }

  /**
   * Moves the position and logs the entry in one transaction, fenced by the lease and the position
   * it started from; false when either moved on (a replica that lost its lease moves nothing).
   * `moved` runs in the same transaction when the position moved (the health event of a recovered stream).
   */
  private advance(
    s: LeasedStream,
    to: Position,
    entry: DeliveryEntry | null,
    change: { delivered?: boolean; dropped?: number },
    moved?: (m: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    return this.ds.transaction(async (m) => {
      if (!(await AuditStreamCursorStore.advance(m, s, this.owner, to, change))) return false;
      if (entry) await AuditStreamsStore.logDelivery(m, s.id, entry);
      await moved?.(m);
      return true;
    });
  }

  /** Records a failed batch and logs it; true when this failure made the stream failing (`turnedFailing` ran then). */
  private failed(
    s: LeasedStream,
    entry: DeliveryEntry,
    retryMs: number,
    failingAfterS: number,
    turnedFailing: (m: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    return this.ds.transaction(async (m) => {
      const r = await AuditStreamCursorStore.failed(m, s, this.owner, entry.error, retryMs, failingAfterS);
      if (!r) return false;
      await AuditStreamsStore.logDelivery(m, s.id, entry);
      if (r.turnedFailing) await turnedFailing(m);
      return r.turnedFailing;
    });
  }

  private moved(s: LeasedStream, to: { tx: string; id: string }, delivered = false): LeasedStream {
    return { ...s, cursor_tx: to.tx, cursor_id: to.id, ...(delivered ? { attempts: 0, failing: false } : {}) };
  }
}
