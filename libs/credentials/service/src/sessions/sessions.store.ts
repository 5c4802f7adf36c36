import { type EntityManager } from 'typeorm';

/** A live session: its token's hash (null once the token is gone) or the admin-token fingerprint. */
export interface SessionRow {
  token_hash: string | null;
  admin_fingerprint: string | null;
  expires_at: Date;
}

/** The only reads and writes of `credentials.console_sessions` (decision 0800): ids stored as their SHA-256. */
export const SessionsStore = {
  /** Ended sessions are swept where new ones are made: the table holds live ones and a few more. */
  async sweepExpired(m: EntityManager): Promise<void> {
    await m.query(`DELETE FROM credentials.console_sessions WHERE expires_at < now()`);
  },

  async insert(
    m: EntityManager,
    s: { sessionHash: string; tokenId: string | null; adminFingerprint: string | null; ttlSeconds: number },
  ): Promise<Date> {
    const rows = await m.query<{ expires_at: Date }[]>(
      `INSERT INTO credentials.console_sessions (session_hash, token_id, admin_fingerprint, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
      [s.sessionHash, s.tokenId, s.adminFingerprint, s.ttlSeconds],
    );
    return rows[0].expires_at;
  },

  async live(m: EntityManager, sessionHash: string): Promise<SessionRow | undefined> {
    const rows = await m.query<SessionRow[]>(
      `SELECT t.token_hash, s.admin_fingerprint, s.expires_at
         FROM credentials.console_sessions s LEFT JOIN credentials.access_tokens t ON t.id = s.token_id
        WHERE s.session_hash = $1 AND s.expires_at > now()`,
      [sessionHash],
    );
    return rows[0];
  },

  async remove(m: EntityManager, sessionHash: string): Promise<boolean> {
    const rows = await m.query<unknown[]>(
      `DELETE FROM credentials.console_sessions WHERE session_hash = $1 RETURNING session_hash`,
      [sessionHash],
    );
    return rows.length > 0;
  },
};

export const iso = (d: Date): string => new Date(d).toISOString();
