import { type EntityManager } from 'typeorm';
import { type AccountKind } from '@hub/credentials-contract';
import { NamesStore } from './names.store';
import { NameTakenError } from './names.errors';

/**
 * Claims `name` for one owner inside the caller's transaction. The same owner claiming the same
 * name again is a no-op (a retried RPC); anyone else gets NameTakenError.
 */
export async function claimName(m: EntityManager, name: string, kind: AccountKind, ownerId: string): Promise<void> {
  if ((await NamesStore.claim(m, name, kind, ownerId)) !== ownerId) throw new NameTakenError(name);
}
