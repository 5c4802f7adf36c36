import { type EntityManager } from 'typeorm';
import { type RepoType, type RepoVisibility } from '@hub/contracts';
import { type RepoUsageQueryDto, type UpsertRepositoryRpc } from '@hub/organizations-contract';

/** A repository with its storage and its owner's total storage. */
export interface RepositoryRow {
  name: string;
  type: RepoType;
  visibility: RepoVisibility;
  storage: string;
  updated_at: string;
  total: string;
}

const ISO = `to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const ORDER = { storage: 'storage', updatedAt: 'updated_at' } as const;

export const ownerOf = (name: string): string => name.slice(0, name.indexOf('/'));

/**
 * The only SQL on `organizations.repositories` (the catalogue every usage listing reads) and
 * `organizations.repo_events_applied` (the bus ids applied once).
 */
export const RepositoriesStore = {
  /** Adds a repository or updates it (applyUpsert without an id), then reads it with its owner's total. */
  async upsert(m: EntityManager, dto: UpsertRepositoryRpc): Promise<RepositoryRow> {
    await RepositoriesStore.applyUpsert(m, undefined, dto);
    const [row] = (await m.query(
      `SELECT name, type, visibility, storage::text, ${ISO} AS updated_at,
         (SELECT COALESCE(sum(storage), 0)::text FROM organizations.repositories o WHERE lower(o.owner) = lower($3)) AS total
       FROM organizations.repositories WHERE type = $1 AND name = $2`,
      [dto.type, dto.name, ownerOf(dto.name)],
    )) as RepositoryRow[];
    return row as RepositoryRow;
  },

  /**
   * Adds a repository or updates it, a missing storage or visibility keeping the one known (a
   * settings change carries no storage). With a bus id, the id and the repository in one
   * statement: false when the id was applied before (nothing changes then). A repo event that
   * records nothing else (a push) needs no transaction around it.
   */
  async applyUpsert(m: EntityManager, msgId: string | undefined, dto: UpsertRepositoryRpc): Promise<boolean> {
    const rows = (await m.query(
      `WITH fresh AS (
         INSERT INTO organizations.repo_events_applied (msg_id) SELECT $7::text WHERE $7::text IS NOT NULL
         ON CONFLICT (msg_id) DO NOTHING RETURNING msg_id),
       up AS (
         INSERT INTO organizations.repositories (type, name, owner, visibility, storage, updated_at)
         SELECT $1, $2, $3, COALESCE($4, 'public'), COALESCE($5::bigint, 0), COALESCE($6::timestamptz, now())
         WHERE $7::text IS NULL OR EXISTS (SELECT 1 FROM fresh)
         ON CONFLICT (type, name) DO UPDATE SET visibility = COALESCE($4, organizations.repositories.visibility),
           storage = COALESCE($5::bigint, organizations.repositories.storage), updated_at = EXCLUDED.updated_at
         RETURNING 1)
       SELECT count(*)::int AS n FROM up`,
      [
        dto.type,
        dto.name,
        ownerOf(dto.name),
        dto.visibility ?? null,
        dto.storage ?? null,
        dto.updatedAt ?? null,
        msgId?.slice(0, 128) ?? null,
      ],
    )) as { n: number }[];
    return (rows[0]?.n ?? 0) > 0;
  },

  async remove(m: EntityManager, type: RepoType, name: string): Promise<void> {
    await m.query(`DELETE FROM organizations.repositories WHERE type = $1 AND name = $2`, [type, name]);
  },

  /** A move keeps the repository's storage and visibility under its new owner/name. */
  async move(m: EntityManager, type: RepoType, from: string, to: string): Promise<void> {
    await m.query(`DELETE FROM organizations.repositories WHERE type = $1 AND name = $2`, [type, to]);
    await m.query(
      `UPDATE organizations.repositories SET name = $3, owner = $4, updated_at = now() WHERE type = $1 AND name = $2`,
      [type, from, to, ownerOf(to)],
    );
  },

  /** Up to `limit` of an owner's repositories from `offset`, filtered and sorted as asked. */
  list(m: EntityManager, owner: string, q: RepoUsageQueryDto, limit: number, offset: number): Promise<RepositoryRow[]> {
    const column = ORDER[q.sort ?? 'storage'];
    const direction = q.direction === 'asc' ? 'ASC' : 'DESC';
    return m.query(
      `WITH owned AS (SELECT * FROM organizations.repositories WHERE lower(owner) = lower($1)),
            total AS (SELECT COALESCE(sum(storage), 0)::text AS total FROM owned)
       SELECT name, type, visibility, storage::text, ${ISO} AS updated_at, total.total
       FROM owned, total
       WHERE ($2::text IS NULL OR strpos(lower(split_part(name, '/', 2)), lower($2)) > 0) AND ($3::text IS NULL OR type = $3)
       ORDER BY ${column} ${direction}, name ASC, type ASC
       LIMIT $4 OFFSET $5`,
      [owner, q.search ?? null, q.type ?? null, limit, offset],
    );
  },

  /** Records a bus id as applied; false when it was already (a redelivery). */
  async firstTime(m: EntityManager, msgId: string): Promise<boolean> {
    const rows = (await m.query(
      `INSERT INTO organizations.repo_events_applied (msg_id) VALUES ($1) ON CONFLICT (msg_id) DO NOTHING RETURNING msg_id`,
      [msgId.slice(0, 128)],
    )) as unknown[];
    return rows.length > 0;
  },

  /** Deletes the ids applied more than `days` ago; answers how many. */
  async pruneApplied(m: EntityManager, days: number): Promise<number> {
    // Counted in a SELECT: one row back whatever the driver makes of a bare DELETE's answer.
    const [row] = (await m.query(
      `WITH gone AS (DELETE FROM organizations.repo_events_applied WHERE applied_at < now() - make_interval(days => $1) RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [days],
    )) as { n: number }[];
    return row?.n ?? 0;
  },
};
