import { type EntityManager, IsNull } from 'typeorm';
import { type TokenRole } from '@hub/contracts';
import { preparedQuery } from '@hub/persistence';
import { AccessTokenEntity } from './access-token.entity';

/** A token revoked as leaked, with its owner to mail. */
export interface RevokedTokenRow {
  id: string;
  user_id: string;
  last4: string;
  display_name: string;
  email: string;
  name: string;
}

/** A live token with its owner and the organizations it is cut off from. */
export interface VerifiedTokenRow {
  token_id: string;
  user_id: string;
  role: TokenRole;
  display_name: string;
  last4: string;
  token_created_at: Date;
  last_used_at: Date | null;
  name: string;
  email: string;
  fullname: string;
  is_pro: boolean;
  user_created_at: Date;
  revoked_orgs: string[] | null;
}

export interface OrgRevocation {
  tokenId: string;
  organizationId: string;
  organizationName: string;
  revokedBy: string | null;
}

/** The only SQL on `credentials.access_tokens` and `credentials.org_token_revocations`. */
export const TokensStore = {
  async insert(m: EntityManager, token: Omit<AccessTokenEntity, 'createdAt'>): Promise<void> {
    await m.insert(AccessTokenEntity, token);
  },

  byId(m: EntityManager, id: string): Promise<AccessTokenEntity> {
    return m.findOneByOrFail(AccessTokenEntity, { id });
  },

  /**
   * Up to `limit` of a user's tokens, revoked ones too, newest first (created_at, then id: token
   * ids are random), after the token `after`, those whose display name holds `search` (any case).
   */
  listForUser(
    m: EntityManager,
    userId: string,
    q: { after?: string; search?: string; limit: number },
  ): Promise<AccessTokenEntity[]> {
    const qb = m.createQueryBuilder(AccessTokenEntity, 't').where('t.user_id = :userId', { userId });
    if (q.after)
      qb.andWhere(
        '(t.created_at, t.id) < (SELECT a.created_at, a.id FROM credentials.access_tokens a WHERE a.id = :after)',
        { after: q.after },
      );
    if (q.search) qb.andWhere('strpos(lower(t.display_name), lower(:s)) > 0', { s: q.search });
    return qb.orderBy('t.created_at', 'DESC').addOrderBy('t.id', 'DESC').limit(q.limit).getMany();
  },

  /** A token not revoked, by its hash or its id. */
  findActive(m: EntityManager, key: { tokenHash: string } | { id: string }): Promise<AccessTokenEntity | null> {
    return m.findOneBy(AccessTokenEntity, { ...key, revokedAt: IsNull() });
  },

  /** The live token with this hash and its owner: one prepared statement, the gateway's every cache miss. */
  async verify(m: EntityManager, tokenHash: string): Promise<VerifiedTokenRow | undefined> {
    const rows = await preparedQuery<VerifiedTokenRow>(
      m.connection,
      'hub-credentials-verify-token',
      `SELECT t.id AS token_id, t.user_id, t.role, t.display_name, t.last4, t.created_at AS token_created_at,
              t.last_used_at, u.name, u.email, u.fullname, u.is_pro, u.created_at AS user_created_at,
              (SELECT array_agg(r.organization_id) FROM credentials.org_token_revocations r WHERE r.token_id = t.id) AS revoked_orgs
         FROM credentials.access_tokens t JOIN credentials.users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
      [tokenHash],
    );
    return rows[0];
  },

  async touch(m: EntityManager, id: string): Promise<void> {
    await m.query(`UPDATE credentials.access_tokens SET last_used_at = now() WHERE id = $1`, [id]);
  },

  /** One of a user's tokens by its id, revoked or not; null when the user has none of that id. */
  ofUser(m: EntityManager, userId: string, id: string): Promise<AccessTokenEntity | null> {
    return m.findOneBy(AccessTokenEntity, { id, userId });
  },

  /** Revokes one live token by its id; answers it as it is now. */
  async revokeById(m: EntityManager, id: string): Promise<AccessTokenEntity> {
    await m.query(`UPDATE credentials.access_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [id]);
    return m.findOneByOrFail(AccessTokenEntity, { id });
  },

  /** Revokes the live tokens with these hashes; answers them with their owners. */
  revokeByHashes(m: EntityManager, hashes: string[]): Promise<RevokedTokenRow[]> {
    return m.query(
      `WITH r AS (
         UPDATE credentials.access_tokens SET revoked_at = now()
          WHERE token_hash = ANY($1::char(64)[]) AND revoked_at IS NULL
      RETURNING id, user_id, last4, display_name)
       SELECT r.*, u.email, u.name FROM r JOIN credentials.users u ON u.id = r.user_id`,
      [hashes],
    );
  },

  /** Records the cut-off unless it exists; answers whether it is new. */
  async insertOrgRevocation(m: EntityManager, r: OrgRevocation): Promise<boolean> {
    const inserted = (await m.query(
      `INSERT INTO credentials.org_token_revocations (token_id, organization_id, organization_name, revoked_by)
       VALUES ($1, $2, $3, $4) ON CONFLICT (token_id, organization_id) DO NOTHING RETURNING token_id`,
      [r.tokenId, r.organizationId, r.organizationName, r.revokedBy],
    )) as unknown[];
    return inserted.length > 0;
  },

  async orgRevokedAt(m: EntityManager, tokenId: string, organizationId: string): Promise<Date | undefined> {
    const [row] = (await m.query(
      `SELECT created_at FROM credentials.org_token_revocations WHERE token_id = $1 AND organization_id = $2`,
      [tokenId, organizationId],
    )) as { created_at: Date }[];
    return row?.created_at;
  },
};
