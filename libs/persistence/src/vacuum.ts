import { type DataSource } from 'typeorm';

/**
 * Whether this database is vacuumed by nobody but us: a Postgres may run with `autovacuum = off`
 * (this machine's CI cluster does). Queue-like tables (the bus's pending messages, webhook
 * deliveries, outboxes) then keep every dead row version and the planner never learns their size.
 */
export async function vacuumedByNobody(ds: DataSource): Promise<boolean> {
  const [row] = (await ds.query(`SELECT current_setting('autovacuum') AS on`)) as { on: string }[];
  return row?.on !== 'on';
}

/**
 * What autovacuum would do, once: VACUUM (ANALYZE) of the tables past its default thresholds
 * (dead rows over 50 + 20 % of the live ones, or changes since the last analyze over 50 + 10 %),
 * skipping tables another session holds, throttled as autovacuum is (2 ms pauses), so a busy hub
 * barely notices. Only `schema`'s tables when given (a service's own). Returns the tables it vacuumed.
 */
export async function vacuumLikeAutovacuum(ds: DataSource, schema?: string): Promise<string[]> {
  const rows = (await ds.query(
    `SELECT format('%I.%I', schemaname, relname) AS name FROM pg_stat_user_tables
      WHERE (n_dead_tup > 50 + 0.2 * n_live_tup OR n_mod_since_analyze > 50 + 0.1 * n_live_tup)
        AND ($1::text IS NULL OR schemaname = $1)
      ORDER BY n_dead_tup DESC`,
    [schema ?? null],
  )) as { name: string }[];
  const tables = rows.map((r) => r.name);
  if (tables.length === 0) return [];
  const runner = ds.createQueryRunner();
  try {
    await runner.query(`SET vacuum_cost_delay = '2ms'`);
    await runner.query(`VACUUM (ANALYZE, SKIP_LOCKED) ${tables.join(', ')}`);
    await runner.query('RESET vacuum_cost_delay');
  } finally {
    await runner.release();
  }
  return tables;
}
