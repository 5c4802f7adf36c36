/**
 * Time-partitioned tables (PostgreSQL native range partitioning, decision 0206): a table that grows
 * with use is split by its time column into one partition per day, week or month, created ahead of
 * time by the service itself and dropped whole once every row in it is past retention. Dropping a
 * partition frees its files at once: no `DELETE`, no dead rows for vacuum, no bloat in the indexes
 * the live rows use. A `DEFAULT` partition takes any row outside the ranges (an event stamped far
 * in the past or future): it stays small and is trimmed by a plain `DELETE`.
 *
 * Partitions are named `<table>_p<YYYYMMDD>` after the first day of their range (UTC), so the range
 * of each is read from its name.
 */

/** Anything that runs SQL: a DataSource, an EntityManager or a migration's QueryRunner. */
export interface SqlRunner {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(sql: string, parameters?: unknown[]): Promise<any>;
}

export type PartitionUnit = 'day' | 'week' | 'month';

export interface PartitionedTable {
  /** Schema of the table (also the schema of its partitions). */
  schema: string;
  table: string;
  /** The partition key: a `timestamptz` column. */
  column: string;
  unit: PartitionUnit;
}

export interface PartitionPass {
  created: string[];
  dropped: string[];
  /** Rows of the default partition past retention, deleted. */
  trimmed: number;
}

const DAY_MS = 86_400_000;

/** The first instant (UTC) of the unit holding `at`: the day, the ISO week (Monday) or the month. */
export function unitStart(unit: PartitionUnit, at: Date): Date {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  if (unit === 'week') return new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY_MS);
  if (unit === 'month') return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  return d;
}

/** The start of the unit after the one starting at `start`. */
export function nextUnit(unit: PartitionUnit, start: Date): Date {
  if (unit === 'month') return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  return new Date(start.getTime() + (unit === 'week' ? 7 : 1) * DAY_MS);
}

export function partitionName(t: PartitionedTable, start: Date): string {
  return `${t.table}_p${start.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/** The start of a partition's range, read from its name; null for the default partition or a stranger. */
export function partitionStart(t: PartitionedTable, name: string): Date | null {
  const m = new RegExp(`^${t.table}_p(\\d{4})(\\d{2})(\\d{2})$`).exec(name);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
}

const qualified = (t: PartitionedTable, name = t.table): string => `"${t.schema}"."${name}"`;
const defaultName = (t: PartitionedTable): string => `${t.table}_default`;

/** The partitions of the table, by name (the default one included). */
export async function listPartitions(q: SqlRunner, t: PartitionedTable): Promise<string[]> {
  const rows = (await q.query(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass ORDER BY c.relname`,
    [qualified(t)],
  )) as { name: string }[];
  return rows.map((r) => r.name);
}

/** Creates the default partition when missing. */
export async function createDefaultPartition(q: SqlRunner, t: PartitionedTable): Promise<void> {
  await q.query(`CREATE TABLE IF NOT EXISTS ${qualified(t, defaultName(t))} PARTITION OF ${qualified(t)} DEFAULT`);
}

/**
 * Creates the partition of the unit starting at `start` unless it exists. Rows of its range that
 * went to the default partition meanwhile move into it (Postgres refuses the new partition while
 * the default one holds rows of its range): the default partition is detached, the partition
 * created, the rows moved and the default partition attached again, in the caller's transaction.
 */
export async function createPartition(q: SqlRunner, t: PartitionedTable, start: Date): Promise<string | null> {
  const name = partitionName(t, start);
  const exists = (await q.query(`SELECT to_regclass($1) IS NOT NULL AS yes`, [qualified(t, name)])) as {
    yes: boolean;
  }[];
  if (exists[0].yes) return null;
  const from = start.toISOString();
  const to = nextUnit(t.unit, start).toISOString();
  const bounds = `FOR VALUES FROM ('${from}') TO ('${to}')`;
  const def = qualified(t, defaultName(t));
  const hasDefault = (await q.query(`SELECT to_regclass($1) IS NOT NULL AS yes`, [def])) as { yes: boolean }[];
  const strays =
    hasDefault[0].yes &&
    ((await q.query(`SELECT 1 FROM ${def} WHERE "${t.column}" >= $1 AND "${t.column}" < $2 LIMIT 1`, [from, to])) as [])
      .length > 0;
  if (!strays) {
    await q.query(`CREATE TABLE ${qualified(t, name)} PARTITION OF ${qualified(t)} ${bounds}`);
    return name;
  }
  await q.query(`ALTER TABLE ${qualified(t)} DETACH PARTITION ${def}`);
  await q.query(`CREATE TABLE ${qualified(t, name)} PARTITION OF ${qualified(t)} ${bounds}`);
  await q.query(
    `WITH moved AS (DELETE FROM ${def} WHERE "${t.column}" >= $1 AND "${t.column}" < $2 RETURNING *)
     INSERT INTO ${qualified(t)} SELECT * FROM moved`,
    [from, to],
  );
  await q.query(`ALTER TABLE ${qualified(t)} ATTACH PARTITION ${def} DEFAULT`);
  return name;
}

/** Creates every partition from the unit holding `from` through the one holding `to`. */
export async function createPartitions(q: SqlRunner, t: PartitionedTable, from: Date, to: Date): Promise<string[]> {
  const created: string[] = [];
  for (let s = unitStart(t.unit, from); s.getTime() <= to.getTime(); s = nextUnit(t.unit, s)) {
    const name = await createPartition(q, t, s);
    if (name) created.push(name);
  }
  return created;
}

export interface KeepOptions {
  /** Rows are kept at least this long; a partition goes once its whole range is older. */
  retentionDays: number;
  /** Units created ahead of the current one. */
  ahead: number;
  /** How long a create or drop waits for its lock before giving up until the next pass (ms). */
  lockTimeoutMs?: number;
  now?: Date;
}

/**
 * One maintenance pass: creates the partitions of the current unit and `ahead` after it, drops the
 * ones wholly past retention and trims the default partition. One replica at a time (an advisory
 * lock per table; another replica's pass returns at once). Each statement waits at most
 * `lockTimeoutMs` for its lock, so that a drop queued behind a long read does not stall the
 * statements queued behind it; a pass that gave up is done again by the next one.
 */
export async function keepPartitions(
  runInTransaction: <T>(work: (q: SqlRunner) => Promise<T>) => Promise<T>,
  t: PartitionedTable,
  o: KeepOptions,
): Promise<PartitionPass> {
  const now = o.now ?? new Date();
  const cutoff = new Date(now.getTime() - o.retentionDays * DAY_MS);
  const pass: PartitionPass = { created: [], dropped: [], trimmed: 0 };
  const locked = async <T>(work: (q: SqlRunner) => Promise<T>): Promise<T | null> =>
    runInTransaction(async (q) => {
      const got = (await q.query(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok`, [
        `hub-partitions:${t.schema}.${t.table}`,
      ])) as { ok: boolean }[];
      if (!got[0].ok) return null;
      await q.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(o.lockTimeoutMs ?? 2000))}`);
      return work(q);
    });
  let start = unitStart(t.unit, now);
  for (let k = 0; k <= o.ahead; k++, start = nextUnit(t.unit, start)) {
    const s = start;
    const name = await locked((q) => createPartition(q, t, s));
    if (name) pass.created.push(name);
  }
  const names = await locked((q) => listPartitions(q, t));
  for (const name of names ?? []) {
    const s = partitionStart(t, name);
    if (!s || nextUnit(t.unit, s).getTime() > cutoff.getTime()) continue;
    const dropped = await locked(async (q) => {
      await q.query(`DROP TABLE IF EXISTS ${qualified(t, name)}`);
      return true;
    });
    if (dropped) pass.dropped.push(name);
  }
  const trimmed = await locked(async (q) => {
    if (
      !(
        (await q.query(`SELECT to_regclass($1) IS NOT NULL AS yes`, [qualified(t, defaultName(t))])) as {
          yes: boolean;
        }[]
      )[0].yes
    )
      return 0;
    const r = (await q.query(`DELETE FROM ${qualified(t, defaultName(t))} WHERE "${t.column}" < $1`, [
      cutoff.toISOString(),
    ])) as [unknown, number];
    return r[1];
  });
  pass.trimmed = trimmed ?? 0;
  return pass;
}
