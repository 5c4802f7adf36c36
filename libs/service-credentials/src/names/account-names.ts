import { type EntityManager, QueryFailedError } from 'typeorm';
import { type AccountKind } from '@hub/contracts';
import { NameTakenError } from './names.errors';

/** The Postgres error of a unique violation, with the constraint it hit. */
export function uniqueViolation(e: unknown): { constraint: string } | null {
  if (!(e instanceof QueryFailedError)) return null;
  const d = e.driverError as { code?: string; constraint?: string };
  return d.code === '23505' ? { constraint: d.constraint ?? '' } : null;
}

/**
 * Claims `name` for one owner inside the caller's transaction. The same owner claiming the same
 * name again is a no-op (a retried RPC); anyone else gets NameTakenError.
 */
export async function claimName(m: EntityManager, name: string, kind: AccountKind, ownerId: string): Promise<void> {
  const rows: { owner_id: string }[] = await m.query(
    `INSERT INTO credentials.account_names (name_key, name, kind, owner_id) VALUES (lower($1), $1, $2, $3)
     ON CONFLICT (name_key) DO UPDATE SET name_key = EXCLUDED.name_key
     RETURNING owner_id`,
    [name, kind, ownerId],
  );
  if (rows[0]?.owner_id !== ownerId) throw new NameTakenError(name);
}
