import { type EntityManager } from 'typeorm';
import { SUSPENDED } from '@hub/webhooks-contract';
import { rowsOf } from './rows';

/** A webhook's failure streak as its failed attempts left it. */
export interface FailureStreak {
  failing_since: Date;
  failures: number;
  disabled: string;
  owner_id: string;
  owner_name: string;
  url: string | null;
}

/**
 * The health columns of `webhooks.webhooks` (architecture section 7): the failure streak and the
 * suspension. A success's refresh is part of the outcomes' statement (`OutcomesStore.write`).
 */
export const WebhookHealthStore = {
  /**
   * Failures added to the webhooks' streaks (each started now if none ran), in one statement;
   * answers the streaks by webhook id, none for a webhook gone.
   */
  async countFailures(m: EntityManager, counts: ReadonlyMap<string, number>): Promise<Map<string, FailureStreak>> {
    const rows = rowsOf<FailureStreak & { id: string }>(
      await m.query(
        `UPDATE webhooks.webhooks w SET last_trigger_at = now(), failing_since = COALESCE(w.failing_since, now()), failures = w.failures + f.n
         FROM unnest($1::bpchar[], $2::int[]) AS f(id, n) WHERE w.id = f.id
         RETURNING w.id, w.failing_since, w.failures, w.disabled, w.owner_id, w.owner_name, w.url`,
        [[...counts.keys()], [...counts.values()]],
      ),
    );
    return new Map(rows.map(({ id, ...streak }) => [id.trim(), streak]));
  },

  /** Suspends it unless it is disabled or suspended already; answers whether it did. */
  async suspend(m: EntityManager, webhookId: string, reason: string): Promise<boolean> {
    const rows = rowsOf(
      await m.query(
        `UPDATE webhooks.webhooks SET disabled = $2, suspended_reason = $3 WHERE id = $1 AND disabled = 'false' RETURNING id`,
        [webhookId, SUSPENDED, reason],
      ),
    );
    return rows.length > 0;
  },
};
