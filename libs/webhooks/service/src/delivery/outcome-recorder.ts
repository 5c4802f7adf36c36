import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { WEBHOOKS_DS } from '../webhooks.di';
import { type LoggedAttempt } from './delivery-log.store';
import { type Outcome, OutcomesStore } from './outcomes.store';

interface Pending extends Outcome {
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
 * Writes attempt outcomes in groups (decision 0501): one statement per group (`OutcomesStore.write`)
 * inserts the log rows, marks the delivered rows and refreshes the webhooks' health (`lastTriggerAt`,
 * failure streak).
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
    this.writing = OutcomesStore.write(this.ds.manager, group)
      .then(
        () => group.forEach((p) => p.done()),
        (err: unknown) => group.forEach((p) => p.fail(err)),
      )
      .finally(() => {
        this.writing = null;
        if (this.pending.length > 0) this.kick();
      });
  }
}
