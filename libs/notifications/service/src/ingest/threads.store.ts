import { type EntityManager } from 'typeorm';
import { type EventUser } from '@hub/notifications-contract';
import { deleteInBatches } from '@hub/persistence';
import { type SettingValues } from '../settings/settings.defaults';
import { type ThreadEvent } from './thread-event';

/** A thread's people as stored before this event. */
export interface ThreadPeopleRow {
  participants: EventUser[];
  participant_ids: string[];
  mentioned_ids: string[];
}

/** A user the event may concern: a watcher of what it is about, or one of the thread's people; with their settings. */
export interface AudienceRow {
  user_id: string;
  watcher: boolean;
  values: SettingValues | null;
}

/** The only SQL of ingest: `applied_events`, `threads`, and the notifications it gives. */
export const ThreadsStore = {
  /** Records the event's id and upserts the thread in one statement; undefined for a replay (nothing written). */
  async recordEvent(m: EntityManager, e: ThreadEvent): Promise<ThreadPeopleRow | undefined> {
    const c = e.columns;
    const [row] = (await m.query(
      `WITH fresh AS (INSERT INTO notifications.applied_events (id) VALUES ($10) ON CONFLICT DO NOTHING RETURNING id)
       INSERT INTO notifications.threads (id, type, repo_type, repo_name, post_author, paper_id, article_id, article_slug, item)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb WHERE EXISTS (SELECT 1 FROM fresh)
       ON CONFLICT (id) DO UPDATE SET item = EXCLUDED.item, repo_type = EXCLUDED.repo_type, repo_name = EXCLUDED.repo_name,
         post_author = EXCLUDED.post_author, paper_id = EXCLUDED.paper_id, article_id = EXCLUDED.article_id, article_slug = EXCLUDED.article_slug
       RETURNING participants, participant_ids, mentioned_ids`,
      [
        e.threadId,
        e.type,
        c.repo_type ?? null,
        c.repo_name ?? null,
        c.post_author ?? null,
        c.paper_id ?? null,
        c.article_id ?? null,
        c.article_slug ?? null,
        JSON.stringify(e.item),
        e.key.slice(0, 140),
      ],
    )) as [ThreadPeopleRow?];
    return row;
  },

  async setPeople(
    m: EntityManager,
    threadId: string,
    participants: EventUser[],
    participantIds: string[],
    mentionedIds: string[],
  ): Promise<void> {
    await m.query(
      'UPDATE notifications.threads SET participants = $2::jsonb, participant_ids = $3::bpchar[], mentioned_ids = $4::bpchar[] WHERE id = $1',
      [threadId, JSON.stringify(participants), participantIds, mentionedIds],
    );
  },

  /** Who watches one of the targets, and the settings of them and of `involved`: one query. */
  audience(m: EntityManager, targets: { type: string; id: string }[], involved: string[]): Promise<AudienceRow[]> {
    return m.query(
      `SELECT c.user_id, bool_or(c.watcher) AS watcher, s.values FROM (
         SELECT w.user_id, true AS watcher FROM notifications.watches w
           JOIN unnest($1::text[], $2::text[]) AS x(type, target) ON w.type = x.type AND lower(w.target) = lower(x.target)
         UNION ALL SELECT u, false FROM unnest($3::bpchar[]) AS u) c
       LEFT JOIN notifications.settings s ON s.user_id = c.user_id
       GROUP BY c.user_id, s.values`,
      [targets.map((t) => t.type), targets.map((t) => t.id), involved],
    );
  },

  /** One notification per recipient for the thread, moved to the top and unread (the inbox_state triggers count them). */
  async notify(
    m: EntityManager,
    recipients: string[],
    threadId: string,
    updatedAt: string,
    discussionEventId: string,
  ): Promise<void> {
    await m.query(
      `INSERT INTO notifications.notifications (user_id, thread_id, read, updated_at, discussion_event_id)
       SELECT u, $2, false, $3, $4 FROM unnest($1::bpchar[]) AS u
       ON CONFLICT (user_id, thread_id) DO UPDATE SET read = false, updated_at = EXCLUDED.updated_at, discussion_event_id = EXCLUDED.discussion_event_id`,
      [recipients, threadId, updatedAt, discussionEventId],
    );
  },

  /** Retention (decision 0206): applied event ids older than `days` (the bus keeps none that old), in batches. */
  deleteAppliedBefore(m: EntityManager, days: number): Promise<number> {
    return deleteInBatches(
      m,
      `DELETE FROM notifications.applied_events WHERE id IN (
         SELECT id FROM notifications.applied_events
          WHERE applied_at < now() - make_interval(secs => $1::float8 * 86400) ORDER BY applied_at LIMIT $2)`,
      [days],
    );
  },
};
