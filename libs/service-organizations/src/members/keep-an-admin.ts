import { type EntityManager } from 'typeorm';
import { LastAdminError } from './members.errors';

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
  const [row] = (await m.query(
    `SELECT count(*)::int AS n FROM organizations.members WHERE organization_id = $1 AND role = 'admin' AND NOT suspended AND user_id <> $2`,
    [org.id, member.userId],
  )) as { n: number }[];
  if ((row?.n ?? 0) === 0) throw new LastAdminError(org.name);
}
