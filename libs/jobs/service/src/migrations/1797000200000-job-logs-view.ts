import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A chunk's lines are numbered `id * SEQ_PER_CHUNK + n` in the view: JobLogs' own numbering
 * (its SEQ_PER_CHUNK, written out here: a migration never changes), so a log stream's position
 * means the same line whichever release's replica serves it.
 */
const SEQ_PER_CHUNK = 65_536;

/**
 * The view and its triggers. `1764000500000-job-log-chunks` makes them in the transaction that
 * drops the table (a previous release's insert waiting on that table then goes through the view);
 * on a database where that migration ran before it did so, the migration below makes them.
 */
export async function createJobLogsView(q: QueryRunner): Promise<void> {
  await q.query(`CREATE VIEW jobs.job_logs AS
    SELECT c.id * ${SEQ_PER_CHUNK} + t.n AS seq, c.job_id, t.ts, t.line
      FROM jobs.job_log_chunks c, unnest(c.ts, c.lines) WITH ORDINALITY AS t(ts, line, n)`);
  await q.query(`CREATE FUNCTION jobs.job_logs_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE chunk bigint;
    BEGIN
      INSERT INTO jobs.job_log_chunks (job_id, ts, lines, bytes)
        VALUES (NEW.job_id, ARRAY[coalesce(NEW.ts, now())], ARRAY[NEW.line], octet_length(NEW.line))
        RETURNING id INTO chunk;
      NEW.seq := chunk * ${SEQ_PER_CHUNK} + 1;
      RETURN NEW;
    END $$`);
  await q.query(`CREATE FUNCTION jobs.job_logs_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM jobs.job_log_chunks WHERE id = OLD.seq / ${SEQ_PER_CHUNK} AND cardinality(lines) = 1;
      RETURN OLD;
    END $$`);
  await q.query(
    `CREATE TRIGGER job_logs_insert INSTEAD OF INSERT ON jobs.job_logs FOR EACH ROW EXECUTE FUNCTION jobs.job_logs_insert()`,
  );
  await q.query(
    `CREATE TRIGGER job_logs_delete INSTEAD OF DELETE ON jobs.job_logs FOR EACH ROW EXECUTE FUNCTION jobs.job_logs_delete()`,
  );
}

/**
 * Expand/contract (decisions 0203, 0207): `1764000500000-job-log-chunks` dropped `jobs.job_logs`,
 * which the previous release's jobs service (0.1.0) still writes and reads while a rolling upgrade
 * runs it beside the migrated schema: its jobs' log lines failed to insert. `jobs.job_logs` comes
 * back as a view over the chunks, in the old shape (`seq`, `job_id`, `ts`, `line`):
 * - the old reads (`WHERE job_id = $1 AND seq > $2 ORDER BY seq`) see every chunk's lines in order;
 * - an old insert becomes a chunk of one line (INSTEAD OF trigger), which this release reads;
 * - an old `dropOldest` deletes the one-line chunks it names; lines of larger chunks stay until
 *   this release's own cap or retention drops their chunk (a log may briefly hold more than the cap).
 * Dropped by a later release (the contract step), once no 0.1.0 service can run beside it.
 */
export class JobLogsView1797000200000 implements MigrationInterface {
  name = 'JobLogsView1797000200000';

  async up(q: QueryRunner): Promise<void> {
    const [{ made }] = (await q.query(`SELECT to_regclass('jobs.job_logs') IS NOT NULL AS made`)) as {
      made: boolean;
    }[];
    if (!made) await createJobLogsView(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP VIEW jobs.job_logs`);
    await q.query(`DROP FUNCTION jobs.job_logs_insert()`);
    await q.query(`DROP FUNCTION jobs.job_logs_delete()`);
  }
}
