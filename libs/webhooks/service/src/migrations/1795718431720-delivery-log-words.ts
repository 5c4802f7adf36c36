import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Rows backfilled per statement: each commits on its own, so the log stays writable meanwhile. */
const BATCH = 5000;

/**
 * The words of each logged payload as a stored column (decision 0502, `q`), with the webhook as one
 * more lexeme (`webhook <id>`: the text-search parser never makes a lexeme with a space, so no word
 * of a payload or of `q` can be it). The GIN over it answers "this webhook's attempts with these
 * words" from the index alone, and the walk newest first tests a stored value instead of parsing
 * each payload again (24 µs a row for a 150-byte payload, more for a large one).
 *
 * Also an index for httpStatus=0 (attempts with no answer) in the page order.
 *
 * Safe on a log that already has rows: the column is added without a default (no rewrite), rows
 * are filled 5,000 per statement, each committed, and the indexes are built CONCURRENTLY (inserts go on);
 * hence no transaction around this migration. Run again after a crash, it picks up where it stopped
 * (an index left invalid by a failed concurrent build is dropped and built again).
 */
export class DeliveryLogWords1795718431720 implements MigrationInterface {
  name = 'DeliveryLogWords1795718431720';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks.delivery_logs ADD COLUMN IF NOT EXISTS search tsvector`);
    for (let last = ''; ;) {
      const rows = (await q.query(
        `WITH batch AS (
           SELECT id FROM webhooks.delivery_logs WHERE id > $1 ORDER BY id LIMIT ${BATCH}),
         filled AS (
           UPDATE webhooks.delivery_logs l
           SET search = to_tsvector('simple', translate(left(l.payload, 65536), '/', ' '))
             || array_to_tsvector(ARRAY['webhook ' || l.webhook_id])
           FROM batch WHERE l.id = batch.id AND l.search IS NULL)
         SELECT max(id) AS last FROM batch`,
        [last],
      )) as { last: string | null }[];
      if (rows[0]?.last === null || rows[0]?.last === undefined) break;
      last = rows[0].last;
    }
    await this.buildConcurrently(q, 'delivery_logs_words', 'USING gin (search)');
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS webhooks.delivery_logs_text`);
    // httpStatus=0: `status IS NULL` is no equality for the planner, so delivery_logs_http does not
    // give it the page order; it walked every attempt instead (4 ms for 1 % of 1,000,000, worse rarer).
    await this.buildConcurrently(
      q,
      'delivery_logs_no_answer',
      '(webhook_id, created_at DESC, seq DESC) WHERE status IS NULL',
    );
  }

  /** CREATE INDEX CONCURRENTLY, after dropping what a failed build of it left (an invalid index). */
  private async buildConcurrently(q: QueryRunner, name: string, definition: string): Promise<void> {
    const invalid = (await q.query(
      `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'webhooks' AND c.relname = $1 AND NOT i.indisvalid`,
      [name],
    )) as unknown[];
    if (invalid.length > 0) await q.query(`DROP INDEX CONCURRENTLY webhooks.${name}`);
    await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON webhooks.delivery_logs ${definition}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS webhooks.delivery_logs_no_answer`);
    await q.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS delivery_logs_text ON webhooks.delivery_logs USING gin (to_tsvector('simple', translate(left(payload, 65536), '/', ' ')))`,
    );
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS webhooks.delivery_logs_words`);
    await q.query(`ALTER TABLE webhooks.delivery_logs DROP COLUMN IF EXISTS search`);
  }
}
