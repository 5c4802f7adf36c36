import { type EntityManager } from 'typeorm';
import { preparedQuery } from '@hub/persistence';
import { LOG_COLUMNS, LOG_RECORD, type LoggedAttempt, logRecord, searchVector } from './delivery-log.store';

/** An attempt's outcome: its log row, and whether it delivered the row. */
export interface Outcome {
  log: LoggedAttempt;
  delivered: boolean;
}

/** Attempt outcomes across the delivery tables (decision 0501). */
export const OutcomesStore = {
  /**
   * One statement for a group of outcomes: inserts their log rows, marks the delivered rows
   * delivered (their lease ends with it) and refreshes their webhooks' health: `lastTriggerAt`, the
   * failure streak ended, no write when nothing changes but a `lastTriggerAt` less than a second old.
   * A named prepared statement on the pool of `m`'s DataSource (outside any transaction of `m`).
   */
  async write(m: EntityManager, group: readonly Outcome[]): Promise<void> {
    // The log rows as one JSON text (decision 0512): serialized natively, where array parameters
    // were escaped string by string by pg.
    const logged = JSON.stringify(group.map((p) => logRecord(p.log)));
    const delivered = group.filter((p) => p.delivered);
    // Prepared: planned once per connection, the plan made again as the tables grow (DeliveryQueueStore.keepPlansFresh, decision 0510).
    await preparedQuery(
      m.connection,
      'webhooks-outcomes-json',
      `WITH logged AS (
         INSERT INTO webhooks.delivery_logs (${LOG_COLUMNS}, search)
         SELECT *, ${searchVector('u.payload', 'u.webhook_id')}
         FROM json_to_recordset($1::json) AS u(${LOG_RECORD})),
       done AS (
         UPDATE webhooks.deliveries SET state = 'delivered', lease_until = NULL WHERE id = ANY($2::bpchar[]))
       UPDATE webhooks.webhooks SET last_trigger_at = now(), failing_since = NULL, failures = 0
       WHERE id = ANY($3::bpchar[]) AND (failures > 0 OR last_trigger_at IS NULL OR last_trigger_at < now() - interval '1 second')`,
      [logged, delivered.map((p) => p.log.deliveryId), [...new Set(delivered.map((p) => p.log.webhookId))]],
    );
  },
};
