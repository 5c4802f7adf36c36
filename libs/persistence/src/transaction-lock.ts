import { type EntityManager } from 'typeorm';

/**
 * Serializes the transactions that name the same key until each commits or rolls back (a Postgres
 * transaction-level advisory lock): a count-then-insert under it cannot be raced past its cap.
 */
export async function lockForTransaction(m: EntityManager, key: string): Promise<void> {
  await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
}
