import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { preparedQuery } from '@hub/persistence';
import { WEBHOOKS_DS } from '../webhooks.di';
import { LOG_COLUMNS, type LoggedAttempt, logRow, searchVector } from './delivery-log.store';

interface Pending {
  log: LoggedAttempt;
  delivered: boolean;
  done: () => void;
  fail: (err: unknown) => void;
}

/**
 * Outcomes waiting longer than this are written even if few (group commit). The statement's cost
 * is mostly its own (about a millisecond of Postgres CPU for one row, 0.1 ms per further row), so
 * at 1,000 deliveries/s 20 ms make groups of ~20 where 5 ms made groups of ~5 (decision 0510). It
 * delays no receipt: the attempt is answered, only its slot is held until the outcome commits.
 */
const GATHER_MS = 20;
/** An ordered or paced webhook's next delivery waits for this outcome: it is written sooner. */
const GATHER_SOON_MS = 5;
const MAX_BATCH = 500;

/**
 * Writes attempt outcomes in groups (decision 0501): one statement per group inserts the log rows,
 * marks the delivered rows and refreshes the webhooks' health (`lastTriggerAt`, failure streak).
 * A row stays leased until its outcome is committed, so a crash before that gives the row back
 * when the lease runs out (a duplicate with the same `webhook-id`, never a loss).
 */
@Injectable()
export class OutcomeRecorder implements OnApplicationShutdown {
  private pending: Pending[] = [];
  private timer?: NodeJS.Timeout;
  /** When the timer fires (ms since the epoch). */
  private timerAt = 0;
  private writing: Promise<void> | null = null;

  constructor(@InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource) {}

  /**
   * Resolves once the attempt's log row (and, when delivered, its outcome) is committed; `soon`
   * (a paced or ordered webhook's, whose next delivery waits for it) shortens the group's wait.
   */
  record(log: LoggedAttempt, delivered: boolean, soon = false): Promise<void> {
    return new Promise((done, fail) => {
      this.pending.push({ log, delivered, done, fail });
      if (this.pending.length >= MAX_BATCH) return this.kick();
      const at = Date.now() + (soon ? GATHER_SOON_MS : GATHER_MS);
      if (this.timer && this.timerAt <= at) return;
      clearTimeout(this.timer);
      this.timerAt = at;
      this.timer = setTimeout(() => this.kick(), at - Date.now());
    });
  }

  async onApplicationShutdown(): Promise<void> {
    while (this.pending.length > 0 || this.writing) {
      this.kick();
      await this.writing;
    }
  }

  private kick(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing || this.pending.length === 0) return;
    const group = this.pending.splice(0, MAX_BATCH);
    this.writing = this.write(group)
      .then(
        () => group.forEach((p) => p.done()),
        (err: unknown) => group.forEach((p) => p.fail(err)),
      )
      .finally(() => {
        this.writing = null;
        if (this.pending.length > 0) this.kick();
      });
  }

  private async write(group: Pending[]): Promise<void> {
    const columns: unknown[][] = Array.from({ length: 14 }, () => []);
    for (const p of group) logRow(p.log).forEach((v, i) => columns[i].push(v));
    const delivered = group.filter((p) => p.delivered);
    // Prepared: planned once per connection, the plan made again as the tables grow (DeliveryQueue.keepPlansFresh, decision 0510).
    await preparedQuery(
      this.ds,
      'webhooks-outcomes',
      `WITH logged AS (
         INSERT INTO webhooks.delivery_logs (${LOG_COLUMNS}, search)
         SELECT *, ${searchVector('u.payload', 'u.webhook_id')}
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::jsonb[], $7::text[], $8::int[], $9::jsonb[], $10::text[], $11::int[], $12::text[], $13::text[], $14::text[])
           AS u(${LOG_COLUMNS})),
       done AS (
         UPDATE webhooks.deliveries SET state = 'delivered', lease_until = NULL WHERE id = ANY($15::bpchar[]))
       UPDATE webhooks.webhooks SET last_trigger_at = now(), failing_since = NULL, failures = 0
       WHERE id = ANY($16::bpchar[]) AND (failures > 0 OR last_trigger_at IS NULL OR last_trigger_at < now() - interval '1 second')`,
      [...columns, delivered.map((p) => p.log.deliveryId), [...new Set(delivered.map((p) => p.log.webhookId))]],
    );
  }
}
