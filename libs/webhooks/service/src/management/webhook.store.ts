import { type EntityManager } from 'typeorm';
import { lockForTransaction, newObjectId, preparedQuery } from '@hub/persistence';
import { type WebhookChanges } from './webhook-changes';
import { WEBHOOK_COLUMNS, type WebhookRow } from './webhook-row';
import { WebhookNotFoundError } from './webhooks.errors';

const ID = /^[0-9a-f]{24}$/;

/** The webhooks table and its watched names, always scoped to the owner. */
export const WebhookStore = {
  list(m: EntityManager, ownerId: string): Promise<WebhookRow[]> {
    return m.query(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks.webhooks w WHERE w.owner_id = $1 ORDER BY w.created_at, w.id`,
      [ownerId],
    );
  },

  /** Another user's webhook is a 404, the same as a missing one. */
  async get(m: EntityManager, ownerId: string, id: string): Promise<WebhookRow> {
    const rows: WebhookRow[] = ID.test(id)
      ? await m.query(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks.webhooks w WHERE w.id = $1 AND w.owner_id = $2`, [
          id,
          ownerId,
        ])
      : [];
    if (!rows[0]) throw new WebhookNotFoundError(id);
    return rows[0];
  },

  /**
   * The webhooks of a claimed batch, in one query: a named prepared statement on the pool of
   * `m`'s DataSource (outside any transaction of `m`).
   */
  async byIds(m: EntityManager, ids: string[]): Promise<Map<string, WebhookRow>> {
    const rows = await preparedQuery<WebhookRow>(
      m.connection,
      'webhooks-by-ids',
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks.webhooks w WHERE w.id = ANY($1)`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  },

  async byId(m: EntityManager, id: string): Promise<WebhookRow | undefined> {
    const rows: WebhookRow[] = await m.query(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks.webhooks w WHERE w.id = $1`, [
      id,
    ]);
    return rows[0];
  },

  /** Held until the caller's transaction ends: the owner's creates then count one after the other. */
  async lockOwner(m: EntityManager, ownerId: string): Promise<void> {
    await lockForTransaction(m, `webhooks.owner:${ownerId}`);
  },

  async countOf(m: EntityManager, ownerId: string): Promise<number> {
    const [{ n }] = (await m.query(`SELECT count(*)::int AS n FROM webhooks.webhooks WHERE owner_id = $1`, [
      ownerId,
    ])) as { n: number }[];
    return n;
  },

  /** The webhook and its watched names (in the caller's transaction: both or neither); answers its id. */
  async insert(
    m: EntityManager,
    owner: { id: string; name: string },
    c: WebhookChanges,
    secretEnc: string | null,
  ): Promise<string> {
    const id = newObjectId();
    await m.query(
      `INSERT INTO webhooks.webhooks (id, owner_id, owner_name, url, job, job_source_id, secret_enc, domains) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        id,
        owner.id,
        owner.name,
        c.url,
        c.job === null ? null : JSON.stringify(c.job),
        c.jobSourceId,
        secretEnc,
        c.domains,
      ],
    );
    await writeWatched(m, id, c);
    return id;
  },

  /** The webhook and its watched names replaced (in the caller's transaction: both or neither). */
  async update(m: EntityManager, id: string, c: WebhookChanges, secretEnc: string | null | undefined): Promise<void> {
    await m.query(
      `UPDATE webhooks.webhooks SET url = $2, job = $3, job_source_id = $4, domains = $5, secret_enc = CASE WHEN $6 THEN secret_enc ELSE $7 END WHERE id = $1`,
      [
        id,
        c.url,
        c.job === null ? null : JSON.stringify(c.job),
        c.jobSourceId,
        c.domains,
        secretEnc === undefined,
        secretEnc ?? null,
      ],
    );
    await m.query(`DELETE FROM webhooks.watched WHERE webhook_id = $1`, [id]);
    await writeWatched(m, id, c);
  },

  async delete(m: EntityManager, id: string): Promise<void> {
    await m.query(`DELETE FROM webhooks.webhooks WHERE id = $1`, [id]);
  },

  /** enable clears a suspension and its failure streak. */
  async setDisabled(m: EntityManager, id: string, disabled: boolean): Promise<void> {
    await m.query(
      `UPDATE webhooks.webhooks SET disabled = $2, suspended_reason = NULL, failing_since = NULL, failures = 0 WHERE id = $1`,
      [id, String(disabled)],
    );
  },

  async setHeaders(m: EntityManager, id: string, headersEnc: string | null): Promise<void> {
    await m.query(`UPDATE webhooks.webhooks SET headers_enc = $2 WHERE id = $1`, [id, headersEnc]);
  },
};

async function writeWatched(m: EntityManager, id: string, c: WebhookChanges): Promise<void> {
  await m.query(
    `INSERT INTO webhooks.watched (webhook_id, type, name, position) SELECT $1, t, n, p FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(t, n, p)`,
    [id, c.watched.map((w) => w.type), c.watched.map((w) => w.name)],
  );
}
