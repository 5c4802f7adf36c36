import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import { lockForTransaction, newObjectId, preparedQuery } from '@hub/persistence';
import { WEBHOOKS_DS } from '../webhooks.di';
import { type WebhookChanges } from './webhook-changes';
import { WEBHOOK_COLUMNS, type WebhookRow } from './webhook-row';
import { TooManyWebhooksError, WebhookNotFoundError } from './webhooks.errors';

const ID = /^[0-9a-f]{24}$/;

/** The webhooks table and its watched names, always scoped to the owner. */
@Injectable()
export class WebhookStore {
  constructor(@InjectDataSource(WEBHOOKS_DS) readonly ds: DataSource) {}

  async list(ownerId: string): Promise<WebhookRow[]> {
    return this.ds.query(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks.webhooks w WHERE w.owner_id = $1 ORDER BY w.created_at, w.id`,
      [ownerId],
    );
  }

  /** Another user's webhook is a 404, the same as a missing one. */
  async get(ownerId: string, id: string, m: EntityManager = this.ds.manager): Promise<WebhookRow> {
    const rows: WebhookRow[] = ID.test(id)
      ? await m.query(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks.webhooks w WHERE w.id = $1 AND w.owner_id = $2`, [
          id,
          ownerId,
        ])
      : [];
    if (!rows[0]) throw new WebhookNotFoundError(id);
    return rows[0];
  }

  /** The webhooks of a claimed batch, in one query. */
  async byIds(ids: string[]): Promise<Map<string, WebhookRow>> {
    const rows = await preparedQuery<WebhookRow>(
      this.ds,
      'webhooks-by-ids',
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks.webhooks w WHERE w.id = ANY($1)`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  async byId(id: string): Promise<WebhookRow | undefined> {
    const rows: WebhookRow[] = await this.ds.query(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks.webhooks w WHERE w.id = $1`,
      [id],
    );
    return rows[0];
  }

  /** Refuses a webhook past the owner's `maxPerOwner` (HUB_WEBHOOKS_MAX_PER_USER). */
  async insert(
    owner: { id: string; name: string },
    c: WebhookChanges,
    secretEnc: string | null,
    maxPerOwner: number,
  ): Promise<string> {
    const id = newObjectId();
    await this.ds.transaction(async (m) => {
      // Held until commit: parallel creates of one owner count one after the other, so they
      // cannot all see room for one more.
      await lockForTransaction(m, `webhooks.owner:${owner.id}`);
      const [{ n }] = (await m.query(`SELECT count(*)::int AS n FROM webhooks.webhooks WHERE owner_id = $1`, [
        owner.id,
      ])) as { n: number }[];
      if (n >= maxPerOwner) throw new TooManyWebhooksError(n, maxPerOwner);
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
      await this.writeWatched(m, id, c);
    });
    return id;
  }

  async update(id: string, c: WebhookChanges, secretEnc: string | null | undefined): Promise<void> {
    await this.ds.transaction(async (m) => {
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
      await this.writeWatched(m, id, c);
    });
  }

  async delete(id: string): Promise<void> {
    await this.ds.query(`DELETE FROM webhooks.webhooks WHERE id = $1`, [id]);
  }

  /** enable clears a suspension and its failure streak. */
  async setDisabled(id: string, disabled: boolean): Promise<void> {
    await this.ds.query(
      `UPDATE webhooks.webhooks SET disabled = $2, suspended_reason = NULL, failing_since = NULL, failures = 0 WHERE id = $1`,
      [id, String(disabled)],
    );
  }

  async setHeaders(id: string, headersEnc: string | null): Promise<void> {
    await this.ds.query(`UPDATE webhooks.webhooks SET headers_enc = $2 WHERE id = $1`, [id, headersEnc]);
  }

  private async writeWatched(m: EntityManager, id: string, c: WebhookChanges): Promise<void> {
    await m.query(
      `INSERT INTO webhooks.watched (webhook_id, type, name, position) SELECT $1, t, n, p FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(t, n, p)`,
      [id, c.watched.map((w) => w.type), c.watched.map((w) => w.name)],
    );
  }
}
