import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import {
  REPO_USAGE_DEFAULT_PAGE,
  type RepoType,
  type RepoUsagePage,
  type RepoUsageQueryDto,
  type RepoUsageView,
  type RepoVisibility,
  type UpsertRepositoryRpc,
} from '@hub/contracts';
import { ORGANIZATIONS_DS } from '../organizations.di';

interface Row {
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

function toView(r: Row): RepoUsageView {
  const storage = Number(r.storage);
  const total = Number(r.total);
  return {
    id: r.name,
    type: r.type,
    updatedAt: r.updated_at,
    visibility: r.visibility,
    storage,
    storagePercent: total > 0 ? (storage / total) * 100 : 0,
  };
}

/** The repositories of every owner with their storage: what the usage listings read. */
@Injectable()
export class RepositoryCatalogue {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  /** Adds a repository or updates it; a missing storage keeps the one known (a settings change carries none). */
  async upsert(dto: UpsertRepositoryRpc, m: EntityManager = this.ds.manager): Promise<RepoUsageView> {
    await m.query(
      `INSERT INTO organizations.repositories (type, name, owner, visibility, storage, updated_at)
       VALUES ($1, $2, $3, COALESCE($4, 'public'), COALESCE($5::bigint, 0), COALESCE($6::timestamptz, now()))
       ON CONFLICT (type, name) DO UPDATE SET visibility = COALESCE($4, organizations.repositories.visibility),
         storage = COALESCE($5::bigint, organizations.repositories.storage), updated_at = EXCLUDED.updated_at`,
      [dto.type, dto.name, ownerOf(dto.name), dto.visibility ?? null, dto.storage ?? null, dto.updatedAt ?? null],
    );
    const [row] = (await m.query(
      `SELECT name, type, visibility, storage::text, ${ISO} AS updated_at,
         (SELECT COALESCE(sum(storage), 0)::text FROM organizations.repositories o WHERE lower(o.owner) = lower($3)) AS total
       FROM organizations.repositories WHERE type = $1 AND name = $2`,
      [dto.type, dto.name, ownerOf(dto.name)],
    )) as Row[];
    return toView(row as Row);
  }

  async remove(type: RepoType, name: string, m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(`DELETE FROM organizations.repositories WHERE type = $1 AND name = $2`, [type, name]);
  }

  /** A move keeps the repository's storage and visibility under its new owner/name. */
  async move(type: RepoType, from: string, to: string, m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(`DELETE FROM organizations.repositories WHERE type = $1 AND name = $2`, [type, to]);
    await m.query(
      `UPDATE organizations.repositories SET name = $3, owner = $4, updated_at = now() WHERE type = $1 AND name = $2`,
      [type, from, to, ownerOf(to)],
    );
  }

  /**
   * One page of an owner's repositories. Offset paging: listings are small (an owner's
   * repositories) and the cursor stays an opaque string should that change.
   */
  async list(owner: string, q: RepoUsageQueryDto): Promise<RepoUsagePage> {
    const limit = q.limit ?? REPO_USAGE_DEFAULT_PAGE;
    const offset = Number(q.cursor ?? 0);
    const column = ORDER[q.sort ?? 'storage'];
    const direction = q.direction === 'asc' ? 'ASC' : 'DESC';
    const rows = (await this.ds.query(
      `WITH owned AS (SELECT * FROM organizations.repositories WHERE lower(owner) = lower($1)),
            total AS (SELECT COALESCE(sum(storage), 0)::text AS total FROM owned)
       SELECT name, type, visibility, storage::text, ${ISO} AS updated_at, total.total
       FROM owned, total
       WHERE ($2::text IS NULL OR strpos(lower(split_part(name, '/', 2)), lower($2)) > 0) AND ($3::text IS NULL OR type = $3)
       ORDER BY ${column} ${direction}, name ASC, type ASC
       LIMIT $4 OFFSET $5`,
      [owner, q.search ?? null, q.type ?? null, limit + 1, offset],
    )) as Row[];
    const more = rows.length > limit;
    return { items: rows.slice(0, limit).map(toView), ...(more ? { next: String(offset + limit) } : {}) };
  }
}
