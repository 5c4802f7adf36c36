import { type EntityManager } from 'typeorm';
import { preparedQuery } from '@hub/persistence';
import { LOG_COLUMNS, type LoggedAttempt, logRow, searchVector } from './delivery-log.store';

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
    const columns: unknown[][] = Array.from({ length: 14 }, () => []);
    for (const p of group) logRow(p.log).forEach((v, i) => columns[i].push(v));
    const delivered = group.filter((p) => p.delivered);
    // Prepared: planned once per connection, the plan made again as the tables grow (DeliveryQueueStore.keepPlansFresh, decision 0510).
    await preparedQuery(
      m.connection,
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
  },
};
