import { type EntityManager } from 'typeorm';
import { SUSPENDED } from '@hub/webhooks-contract';
import { rowsOf } from './rows';

/** A webhook's failure streak as its failed attempt left it. */
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
  /** One more failure in the streak (started now if none ran); answers the streak, none for a webhook gone. */
  async countFailure(m: EntityManager, webhookId: string): Promise<FailureStreak | undefined> {
    const rows = rowsOf<FailureStreak>(
      await m.query(
        `UPDATE webhooks.webhooks SET last_trigger_at = now(), failing_since = COALESCE(failing_since, now()), failures = failures + 1
         WHERE id = $1 RETURNING failing_since, failures, disabled, owner_id, owner_name, url`,
        [webhookId],
      ),
    );
    return rows[0];
  },

  async suspend(m: EntityManager, webhookId: string, reason: string): Promise<void> {
    await m.query(`UPDATE webhooks.webhooks SET disabled = $2, suspended_reason = $3 WHERE id = $1`, [
      webhookId,
      SUSPENDED,
      reason,
    ]);
  },
};
