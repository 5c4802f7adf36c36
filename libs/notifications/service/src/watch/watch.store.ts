import { type EntityManager } from 'typeorm';
import { type WatchItem } from '@hub/notifications-contract';

/** The only SQL on `notifications.watches` for the watch RPCs; targets compare case-insensitively. */
export const WatchStore = {
  list(m: EntityManager, userId: string): Promise<WatchItem[]> {
    return m.query(
      'SELECT target AS id, type FROM notifications.watches WHERE user_id = $1 ORDER BY created_at, type, target',
      [userId],
    );
  },

  async remove(m: EntityManager, userId: string, items: WatchItem[]): Promise<void> {
    for (const w of items) {
      await m.query(
        'DELETE FROM notifications.watches WHERE user_id = $1 AND type = $2 AND lower(target) = lower($3)',
        [userId, w.type, w.id],
      );
    }
  },

  /** Adds the items not watched yet; adding twice is a no-op. */
  async add(m: EntityManager, userId: string, items: WatchItem[]): Promise<void> {
    await m.query(
      `INSERT INTO notifications.watches (user_id, type, target)
       SELECT $1, x.type, x.target FROM unnest($2::text[], $3::text[]) AS x(type, target)
       WHERE NOT EXISTS (SELECT 1 FROM notifications.watches w WHERE w.user_id = $1 AND w.type = x.type AND lower(w.target) = lower(x.target))
       ON CONFLICT DO NOTHING`,
      [userId, items.map((w) => w.type), items.map((w) => w.id)],
    );
  },

  async count(m: EntityManager, userId: string): Promise<number> {
    const [{ n }] = (await m.query('SELECT count(*)::int AS n FROM notifications.watches WHERE user_id = $1', [
      userId,
    ])) as [{ n: number }];
    return n;
  },
};
