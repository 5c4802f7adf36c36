import { type EntityManager } from 'typeorm';
import { LastAdminError } from './members.errors';
import { MembersStore } from './members.store';

/**
 * An organization keeps at least one active admin: removing, demoting or suspending the last one
 * is a 409. Callers hold the organization's row lock, which serializes these checks.
 */
export async function keepAnAdmin(
  m: EntityManager,
  org: { id: string; name: string },
  member: { userId: string; role: string },
): Promise<void> {
  if (member.role !== 'admin') return;
  if ((await MembersStore.otherActiveAdmins(m, org.id, member.userId)) === 0) throw new LastAdminError(org.name);
}
