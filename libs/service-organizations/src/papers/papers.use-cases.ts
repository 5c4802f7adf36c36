import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import { type AdminCreatePaperDto, type ClaimPaperRpc, type ClaimPaperView, type PaperView } from '@hub/contracts';
import { newObjectId } from '@hub/persistence';
import { ORGANIZATIONS_DS } from '../organizations.tokens';
import {
  PaperAlreadyClaimedError,
  PaperAuthorClaimedError,
  PaperAuthorNotFoundError,
  PaperNotFoundError,
} from './papers.errors';

/**
 * Papers and claims of their author entries (decision 0410): an entry is claimed once (the
 * same user claiming it again is a success that changes nothing), a user claims at most one
 * entry per paper, an unknown paper or entry is 404. The gateway lets `targetUserId` name only
 * the caller.
 */
@Injectable()
export class PaperUseCases {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  /** Adds a paper or replaces its title and entries; claims of entries that stay are kept. */
  upsert(dto: AdminCreatePaperDto): Promise<PaperView> {
    return this.ds.transaction(async (m) => {
      await m.query(
        `INSERT INTO organizations.papers (id, title) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, updated_at = now()`,
        [dto.id, dto.title],
      );
      const ids = dto.authors.map((a) => a._id ?? newObjectId());
      await m.query(
        `DELETE FROM organizations.paper_authors WHERE paper_id = $1 AND NOT (author_id = ANY($2::char(24)[]))`,
        [dto.id, ids],
      );
      for (const [i, a] of dto.authors.entries()) {
        await m.query(
          `INSERT INTO organizations.paper_authors (paper_id, author_id, position, name) VALUES ($1, $2, $3, $4)
           ON CONFLICT (paper_id, author_id) DO UPDATE SET position = EXCLUDED.position, name = EXCLUDED.name`,
          [dto.id, ids[i], i, a.name],
        );
      }
      return this.read(m, dto.id);
    });
  }

  claim(dto: ClaimPaperRpc): Promise<ClaimPaperView> {
    return this.ds.transaction(async (m) => {
      const [paper] = (await m.query(`SELECT id FROM organizations.papers WHERE id = $1 FOR UPDATE`, [
        dto.paperId,
      ])) as unknown[];
      if (!paper) throw new PaperNotFoundError(dto.paperId);
      const [entry] = (await m.query(
        `SELECT claimed_by FROM organizations.paper_authors WHERE paper_id = $1 AND author_id = $2`,
        [dto.paperId, dto.claimAuthorId],
      )) as { claimed_by: string | null }[];
      if (!entry) throw new PaperAuthorNotFoundError(dto.paperId, dto.claimAuthorId);
      const userId = dto.userId;
      if (entry.claimed_by === userId) return { ok: true, claimedPaperId: dto.paperId };
      if (entry.claimed_by) throw new PaperAuthorClaimedError(dto.paperId, dto.claimAuthorId);
      const [other] = (await m.query(
        `SELECT 1 FROM organizations.paper_authors WHERE paper_id = $1 AND claimed_by = $2`,
        [dto.paperId, userId],
      )) as unknown[];
      if (other) throw new PaperAlreadyClaimedError(dto.paperId);
      await m.query(
        `UPDATE organizations.paper_authors SET claimed_by = $3, claimed_by_name = $4, claimed_at = now() WHERE paper_id = $1 AND author_id = $2`,
        [dto.paperId, dto.claimAuthorId, userId, dto.userName],
      );
      return { ok: true, claimedPaperId: dto.paperId };
    });
  }

  private async read(m: EntityManager, id: string): Promise<PaperView> {
    const [p] = (await m.query(`SELECT id, title FROM organizations.papers WHERE id = $1`, [id])) as {
      id: string;
      title: string;
    }[];
    const authors = (await m.query(
      `SELECT author_id, name, claimed_by_name FROM organizations.paper_authors WHERE paper_id = $1 ORDER BY position`,
      [id],
    )) as { author_id: string; name: string; claimed_by_name: string | null }[];
    return {
      id: p?.id ?? id,
      title: p?.title ?? '',
      authors: authors.map((a) => ({
        _id: a.author_id,
        name: a.name,
        ...(a.claimed_by_name ? { claimedBy: a.claimed_by_name } : {}),
      })),
    };
  }
}
