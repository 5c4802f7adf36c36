import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { WEBHOOKS_DS } from '../webhooks.di';
import { type LoggedAttempt } from './delivery-log.store';
import { GroupCommit } from './group-commit';
import { type Outcome, OutcomesStore } from './outcomes.store';

/**
 * Outcomes waiting longer than 20 ms are written even if few (group commit). The statement's cost
 * is mostly its own (about a millisecond of Postgres CPU for one row, 0.1 ms per further row), so
 * at 1,000 deliveries/s 20 ms make groups of ~20 where 5 ms made groups of ~5 (decision 0510). It
 * delays no receipt: the attempt is answered, only its slot is held until the outcome commits.
 * An ordered or paced webhook's next delivery waits for its outcome: that one is written after 5 ms.
 */
export const OUTCOME_TIMING = { gatherMs: 20, soonMs: 5, maxBatch: 500 };

/**
 * Writes attempt outcomes in groups (decision 0501): one statement per group (`OutcomesStore.write`)
 * inserts the log rows, marks the delivered rows and refreshes the webhooks' health (`lastTriggerAt`,
 * failure streak).
 * A row stays leased until its outcome is committed, so a crash before that gives the row back
 * when the lease runs out (a duplicate with the same `webhook-id`, never a loss).
 */
@Injectable()
export class OutcomeRecorder implements OnApplicationShutdown {
  private readonly group: GroupCommit<Outcome, void>;

  constructor(@InjectDataSource(WEBHOOKS_DS) ds: DataSource) {
    this.group = new GroupCommit<Outcome, void>(async (outcomes) => {
      await OutcomesStore.write(ds.manager, outcomes);
      return outcomes.map(() => undefined);
    }, OUTCOME_TIMING);
  }

  /**
   * Resolves once the attempt's log row (and, when delivered, its outcome) is committed; `soon`
   * (a paced or ordered webhook's, whose next delivery waits for it) shortens the group's wait.
   */
  record(log: LoggedAttempt, delivered: boolean, soon = false): Promise<void> {
    return this.group.add({ log, delivered }, soon);
  }

  onApplicationShutdown(): Promise<void> {
    return this.group.drain();
  }
}
