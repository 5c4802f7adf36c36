import { type DataSource } from 'typeorm';

/**
 * Whether this database is vacuumed by nobody but us: PGlite runs Postgres single-user, without
 * the autovacuum launcher (its `autovacuum` setting still reads `on`: a table updated 100,000
 * times kept every dead row version), and a Postgres may run with `autovacuum = off` (this
 * machine's CI cluster does). Queue-like tables (the bus's pending messages, webhook deliveries,
 * outboxes) then keep every dead row version and the planner never learns their size.
 */
export async function vacuumedByNobody(ds: DataSource): Promise<boolean> {
  const onPostgres = 'url' in ds.options && Boolean(ds.options.url);
  if (!onPostgres) return true;
  const [row] = (await ds.query(`SELECT current_setting('autovacuum') AS on`)) as { on: string }[];
  return row?.on !== 'on';
}

/**
 * VACUUM (ANALYZE) of the whole database, skipping tables another session holds. Cheap when
 * repeated (pages with no dead rows are skipped through the visibility map); not in a transaction.
 */
export async function vacuumDatabase(ds: DataSource): Promise<void> {
  await ds.query('VACUUM (ANALYZE, SKIP_LOCKED)');
}
