import { type EntityManager } from 'typeorm';

export interface PaperRow {
  id: string;
  title: string;
}

export interface PaperAuthorRow {
  author_id: string;
  name: string;
  claimed_by_name: string | null;
}

/** The only SQL on `organizations.papers` and `organizations.paper_authors`. */
export const PapersStore = {
  async upsert(m: EntityManager, id: string, title: string): Promise<void> {
    await m.query(
      `INSERT INTO organizations.papers (id, title) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, updated_at = now()`,
      [id, title],
    );
  },

  /** Drops the paper's author entries not in `keep`. */
  async deleteAuthorsExcept(m: EntityManager, paperId: string, keep: string[]): Promise<void> {
    await m.query(
      `DELETE FROM organizations.paper_authors WHERE paper_id = $1 AND NOT (author_id = ANY($2::char(24)[]))`,
      [paperId, keep],
    );
  },

  /** Adds an author entry or moves/renames it; its claim stays. */
  async upsertAuthor(
    m: EntityManager,
    paperId: string,
    authorId: string,
    position: number,
    name: string,
  ): Promise<void> {
    await m.query(
      `INSERT INTO organizations.paper_authors (paper_id, author_id, position, name) VALUES ($1, $2, $3, $4)
       ON CONFLICT (paper_id, author_id) DO UPDATE SET position = EXCLUDED.position, name = EXCLUDED.name`,
      [paperId, authorId, position, name],
    );
  },

  async get(m: EntityManager, id: string): Promise<PaperRow | undefined> {
    const [p] = (await m.query(`SELECT id, title FROM organizations.papers WHERE id = $1`, [id])) as PaperRow[];
    return p;
  },

  authors(m: EntityManager, paperId: string): Promise<PaperAuthorRow[]> {
    return m.query(
      `SELECT author_id, name, claimed_by_name FROM organizations.paper_authors WHERE paper_id = $1 ORDER BY position`,
      [paperId],
    );
  },

  /** Locks the paper row for the claim; false when there is no such paper. */
  async lock(m: EntityManager, id: string): Promise<boolean> {
    const rows = (await m.query(`SELECT id FROM organizations.papers WHERE id = $1 FOR UPDATE`, [id])) as unknown[];
    return rows.length > 0;
  },

  /** The author entry's claimant; undefined when there is no such entry. */
  async claimant(
    m: EntityManager,
    paperId: string,
    authorId: string,
  ): Promise<{ claimedBy: string | null } | undefined> {
    const [entry] = (await m.query(
      `SELECT claimed_by FROM organizations.paper_authors WHERE paper_id = $1 AND author_id = $2`,
      [paperId, authorId],
    )) as { claimed_by: string | null }[];
    return entry ? { claimedBy: entry.claimed_by } : undefined;
  },

  async hasClaimBy(m: EntityManager, paperId: string, userId: string): Promise<boolean> {
    const rows = (await m.query(`SELECT 1 FROM organizations.paper_authors WHERE paper_id = $1 AND claimed_by = $2`, [
      paperId,
      userId,
    ])) as unknown[];
    return rows.length > 0;
  },

  async claim(m: EntityManager, paperId: string, authorId: string, userId: string, userName: string): Promise<void> {
    await m.query(
      `UPDATE organizations.paper_authors SET claimed_by = $3, claimed_by_name = $4, claimed_at = now() WHERE paper_id = $1 AND author_id = $2`,
      [paperId, authorId, userId, userName],
    );
  },
};
