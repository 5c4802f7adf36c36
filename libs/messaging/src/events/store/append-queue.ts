import { type DataSource } from 'typeorm';

export interface AppendInput {
  subject: string;
  msgId: string | undefined;
  payload: string;
}

interface Append extends AppendInput {
  done: (stored: boolean) => void;
  fail: (err: unknown) => void;
  /** Appends added together (`addAll`) share one and go in the same statement: all or none. */
  unit?: object;
}

/** Any constant: it names the lock every writer of bus.events takes (pg_advisory_xact_lock). */
const APPEND_LOCK = 0x6875_6262; // "hubb"
const MAX_PER_STATEMENT = 500;

/**
 * Writes the bus's events one statement at a time, each holding a transaction-scoped advisory
 * lock from before its rows take their sequence numbers until it commits. So events become
 * visible in `seq` order, and a consumer's cursor (the highest `seq` it has read) never passes an
 * event that commits later: with concurrent inserts, seq 12 could commit after seq 13 had been
 * read, and be skipped for good. Appends made while a statement runs wait for the next one and
 * share it (group commit, no timer), so serializing costs round trips only under no load.
 */
export class AppendQueue {
  private waiting: Append[] = [];
  private writing = false;

  constructor(private readonly ds: DataSource) {}

  add(e: AppendInput): Promise<boolean> {
    return new Promise<boolean>((done, fail) => {
      this.waiting.push({ ...e, done, fail });
      if (!this.writing) void this.writeAll();
    });
  }

  /** Appends in order, in one statement (never split between two): all stored or none. */
  addAll(events: AppendInput[]): Promise<boolean[]> {
    const unit = {};
    const stored = events.map(
      (e) => new Promise<boolean>((done, fail) => this.waiting.push({ ...e, done, fail, unit })),
    );
    if (!this.writing && events.length > 0) void this.writeAll();
    return Promise.all(stored);
  }

  /** How many waiting appends the next statement takes: at most MAX_PER_STATEMENT, never part of a unit. */
  private nextBatchSize(): number {
    const n = Math.min(MAX_PER_STATEMENT, this.waiting.length);
    const unit = this.waiting[n - 1]?.unit;
    if (unit === undefined || this.waiting[n]?.unit !== unit) return n; // no unit cut in two
    const start = this.waiting.findIndex((a) => a.unit === unit);
    if (start > 0) return start; // the unit waits, whole, for the next statement
    let end = n; // a unit over the limit goes alone
    while (this.waiting[end]?.unit === unit) end++;
    return end;
  }

  private async writeAll(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, this.nextBatchSize());
        try {
          const stored = await this.write(batch);
          batch.forEach((a, i) => a.done(stored[i] as boolean));
        } catch (err) {
          for (const a of batch) a.fail(err);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /** One INSERT for the batch; per append, whether it was stored (not a repeated msgId). */
  private async write(batch: Append[]): Promise<boolean[]> {
    // A msgId twice in one batch: the first is written (or found stored), the second is a repeat.
    const seen = new Set<string>();
    const rows = batch.filter((a) => a.msgId === undefined || (!seen.has(a.msgId) && seen.add(a.msgId)));
    const written = new Set(rows);
    const inserted = (await this.ds.query(
      `INSERT INTO bus.events (subject, msg_id, payload)
       SELECT u.subject, u.msg_id, u.payload
         FROM (SELECT pg_advisory_xact_lock(${APPEND_LOCK})) AS l,
              unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS u(subject, msg_id, payload, n)
        ORDER BY u.n
       ON CONFLICT (msg_id) DO NOTHING
       RETURNING msg_id`,
      [rows.map((a) => a.subject), rows.map((a) => a.msgId ?? null), rows.map((a) => a.payload)],
    )) as { msg_id: string | null }[];
    const stored = new Set(inserted.map((r) => r.msg_id));
    return batch.map((a) => written.has(a) && (a.msgId === undefined || stored.has(a.msgId)));
  }
}
