import { type EntityManager } from 'typeorm';
import { type AccountKind } from '@hub/credentials-contract';

/** The only SQL on `credentials.account_names`, the name space users and organizations share. */
export const NamesStore = {
  /**
   * Claims `name` for `ownerId` unless someone else holds it (case-insensitively); answers the
   * holder's id, so the same owner claiming again (a retried RPC) is told it holds it.
   */
  async claim(m: EntityManager, name: string, kind: AccountKind, ownerId: string): Promise<string | undefined> {
    const rows: { owner_id: string }[] = await m.query(
      `INSERT INTO credentials.account_names (name_key, name, kind, owner_id) VALUES (lower($1), $1, $2, $3)
       ON CONFLICT (name_key) DO UPDATE SET name_key = EXCLUDED.name_key
       RETURNING owner_id`,
      [name, kind, ownerId],
    );
    return rows[0]?.owner_id;
  },

  /** Deletes an organization's reservation; answers whether there was one. */
  async releaseOrganization(m: EntityManager, ownerId: string): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `DELETE FROM credentials.account_names WHERE owner_id = $1 AND kind = 'organization' RETURNING owner_id`,
      [ownerId],
    );
    return rows.length > 0;
  },
};
