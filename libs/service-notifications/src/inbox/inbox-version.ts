import { type EntityManager } from 'typeorm';

/** Any change to a user's inbox moves its version: the next poll's ETag differs (no 304). */
export async function bumpInboxVersions(m: EntityManager, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await m.query(
    `INSERT INTO notifications.inbox_state (user_id, version, changed_at)
     SELECT u, 1, now() FROM unnest($1::bpchar[]) AS u ORDER BY u
     ON CONFLICT (user_id) DO UPDATE SET version = notifications.inbox_state.version + 1, changed_at = now()`,
    [userIds],
  );
}
