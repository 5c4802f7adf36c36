import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { type DataSource } from 'typeorm';
import { type PayloadClass } from '@hub/contracts';
import { type EventBus } from '../events/event-bus';

const POLL_MS = 1000;
const BATCH = 100;
const LEASE_SECONDS = 30;
const MAX_BACKOFF_MS = 5000;
const PRUNE_EVERY_MS = 60_000;
/** Sent rows are kept this long for diagnosis, then deleted. */
const KEEP_SENT = `interval '1 day'`;
/** Rows whose payload class this process checked at the write (`noteChecked`): past that many, the oldest are forgotten. */
const MAX_NOTED = 4096;

interface PendingRow {
  id: string;
  subject: string;
  payload: string;
}

/**
 * Publishes what a service's outbox holds, oldest first, with the row id as msgId (JetStream
 * and the in-process bus drop a repeat, so a crash between publishing and marking sends no
 * duplicate). One replica relays at a time, holding a lease row, so events leave in commit
 * order, per aggregate and overall; another replica takes over when the lease runs out. While
 * the bus is away it backs off and keeps the rows: nothing is lost, the caller saw no error.
 */
export class OutboxRelay {
  private readonly logger: Logger;
  /** This replica's name in the lease row (`outbox_relay.holder`). */
  readonly holder = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private failures = 0;
  private resumeAt = 0;
  private lastPrune = 0;
  /** Outbox rows this process wrote, by id: the class `Outbox` validated the payload against. */
  private readonly checked = new Map<string, PayloadClass<unknown>>();

  constructor(
    private readonly ds: DataSource,
    private readonly bus: EventBus,
    private readonly schema: string,
  ) {
    this.logger = new Logger(`Outbox:${schema}`);
  }

  /**
   * `Outbox` validated this row's payload against `cls` when it wrote it: the relay publishes it
   * with `checked`, so the in-process bus's consumers of that class do not run the same rules
   * again on each delivery (decision 0512; the bus still compares the text). A row another
   * replica wrote, or one written before a restart, is validated by its consumers as before.
   */
  noteChecked(id: string, cls: PayloadClass<unknown>): void {
    this.checked.set(id, cls);
    if (this.checked.size > MAX_NOTED) this.checked.delete(this.checked.keys().next().value as string);
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    // Hand over at once instead of after the lease runs out.
    await this.ds
      .query(`UPDATE ${this.schema}.outbox_relay SET lease_until = now() WHERE id = 1 AND holder = $1`, [this.holder])
      .catch(() => undefined);
  }

  /** Publish pending rows now (called right after a commit that added some). */
  kick(): void {
    if (this.stopped || Date.now() < this.resumeAt) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .then(() => {
        this.failures = 0;
      })
      .catch((err: unknown) => {
        this.failures++;
        const pause = Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.min(this.failures, 5));
        this.resumeAt = Date.now() + pause;
        this.logger.warn({ err, failures: this.failures }, `publishing outbox events failed, retrying in ${pause} ms`);
      })
      .finally(() => {
        this.running = null;
        if (this.again && Date.now() >= this.resumeAt) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Takes or renews the relay lease; false while another replica holds it. */
  private async lease(): Promise<boolean> {
    // Inside a CTE: TypeORM returns a bare UPDATE … RETURNING as [rows, count].
    const rows: unknown[] = await this.ds.query(
      `WITH l AS (
         UPDATE ${this.schema}.outbox_relay SET holder = $1, lease_until = now() + interval '${LEASE_SECONDS} seconds'
          WHERE id = 1 AND (holder = $1 OR lease_until IS NULL OR lease_until < now()) RETURNING id)
       SELECT id FROM l`,
      [this.holder],
    );
    return rows.length > 0;
  }

  private async drain(): Promise<void> {
    if (!(await this.lease())) return;
    for (;;) {
      const rows: PendingRow[] = await this.ds.query(
        `SELECT id, subject, payload FROM ${this.schema}.outbox WHERE sent_at IS NULL ORDER BY seq LIMIT ${BATCH}`,
      );
      if (rows.length === 0 || this.stopped) break;
      // In order, stopping at the first failure: a later event must not overtake an earlier one.
      const { published, error } = await this.bus.publishInOrder(
        rows.map((row) => {
          const cls = this.checked.get(row.id);
          return {
            event: { subject: row.subject, payload: Object as PayloadClass<unknown> },
            payload: JSON.parse(row.payload) as unknown,
            msgId: row.id,
            checked: cls ? [cls] : undefined,
          };
        }),
      );
      for (const row of rows.slice(0, published)) this.checked.delete(row.id);
      await this.markSent(rows.slice(0, published).map((r) => r.id));
      if (published < rows.length) {
        const failed = rows[published] as PendingRow;
        await this.ds.query(`UPDATE ${this.schema}.outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1`, [
          failed.id,
          String(error),
        ]);
        throw error;
      }
      if (rows.length < BATCH) break;
    }
    await this.prune();
  }

  private async markSent(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.ds.query(
      `UPDATE ${this.schema}.outbox SET sent_at = now(), attempts = attempts + 1 WHERE id = ANY($1::char(24)[])`,
      [ids],
    );
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await this.ds.query(`DELETE FROM ${this.schema}.outbox WHERE sent_at < now() - ${KEEP_SENT}`);
  }
}
