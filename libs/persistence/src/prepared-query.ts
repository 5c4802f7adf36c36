import { type DataSource } from 'typeorm';

interface PgPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** node-postgres's pool behind the DataSource. */
function pgPool(ds: DataSource): PgPool | null {
  const master = (ds.driver as unknown as { master?: unknown }).master;
  return master && typeof (master as PgPool).query === 'function' ? (master as PgPool) : null;
}

/**
 * Runs a hot query as a named prepared statement on Postgres: planned once per connection
 * instead of on every call (bench:gateway measured Postgres CPU per token lookup about 4x
 * lower). TypeORM's `query` cannot name statements.
 *
 * Only for statements whose plan cannot depend on a table's size. After five executions
 * Postgres may keep a generic plan for the connection's life, re-planned only when the table's
 * statistics change: a plan made while a queue table was nearly empty (a hash join over a
 * sequential scan, say) stays when it holds 500,000 rows, and stays for good where autovacuum is
 * off (this machine's CI Postgres: `bench:webhooks` all-in-one spent its time scanning
 * `webhooks.deliveries` once per outcome batch). Statements over tables that grow from empty,
 * run once per batch, are planned per call instead: that costs a fraction of a millisecond per batch;
 * or, where that fraction is most of the statement's cost, prepared while their service analyzes
 * each table they read once it has doubled (the webhooks queue's `keepPlansFresh`, decision 0510).
 * Without a node-postgres pool behind the DataSource (a test's stub) it is a plain query.
 */
export async function preparedQuery<T>(ds: DataSource, name: string, text: string, values: unknown[]): Promise<T[]> {
  const pool = pgPool(ds);
  if (!pool) return (await ds.query(text, values)) as T[];
  return (await pool.query({ name, text, values })).rows as T[];
}
