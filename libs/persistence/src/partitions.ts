/**
 * Time-partitioned tables (PostgreSQL native range partitioning, decision 0206): a table that grows
 * with use is split by its time column into one partition per day, week or month, created ahead of
 * time by the service itself and dropped whole once every row in it is past retention. Dropping a
 * partition frees its files at once: no `DELETE`, no dead rows for vacuum, no bloat in the indexes
 * the live rows use. A `DEFAULT` partition takes any row outside the ranges (an event stamped far
 * in the past or future): it stays small and is trimmed by a plain `DELETE`.
 *
 * Partitions are named `<table>_p<YYYYMMDD>` after the first day of their range (UTC); what the
 * passes read is each partition's range in the catalog, so a partition attached by a migration
 * (an old table holding every row before the switch) is dropped like any other once past retention.
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

const qualified = (t: PartitionedTable, name = t.table): string => `"${t.schema}"."${name}"`;
const defaultName = (t: PartitionedTable): string => `${t.table}_default`;

export interface Partition {
  name: string;
  /** The range, read from the catalog; null for an open end (MINVALUE, MAXVALUE) and both for the default partition. */
  from: Date | null;
  to: Date | null;
  isDefault: boolean;
}

/** The partitions of the table with their ranges, oldest first (the default partition last). */
export async function listPartitions(q: SqlRunner, t: PartitionedTable): Promise<Partition[]> {
  const rows = (await q.query(
    `SELECT name, bound = 'DEFAULT' AS "isDefault",
            (regexp_match(bound, 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz AS "from",
            (regexp_match(bound, 'TO \\(''([^'']+)''\\)'))[1]::timestamptz AS "to"
       FROM (SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
               FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass) p
      ORDER BY bound = 'DEFAULT', "to" NULLS LAST`,
    [qualified(t)],
  )) as Partition[];
  return rows;
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
  const end = nextUnit(t.unit, start);
  const existing = await listPartitions(q, t);
  const overlaps = (p: Partition): boolean =>
    !p.isDefault && (p.from === null || p.from < end) && (p.to === null || p.to > start);
  // A partition already holds (part of) this range: the unit's own, or one attached by a migration.
  if (existing.some(overlaps)) return null;
  const from = start.toISOString();
  const to = end.toISOString();
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
  const partitions = await locked((q) => listPartitions(q, t));
  for (const { name, to } of partitions ?? []) {
    if (to === null || to.getTime() > cutoff.getTime()) continue;
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

/**
 * Runs a `DELETE` of at most `batch` rows (its statement takes the batch size as its last
 * parameter) until one deletes fewer: a small table's retention, each batch its own short
 * transaction so that no lock is held long. Resolves with the rows deleted.
 */
export async function deleteInBatches(q: SqlRunner, sql: string, parameters: unknown[], batch = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const [, count] = (await q.query(sql, [...parameters, batch])) as [unknown, number];
    total += count;
    if (count < batch) return total;
  }
}
