import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Threads (one per discussion, paper discussion, post or article, shared by its readers), one
 * notification per user and thread, the per-user inbox version (ETag), settings and watch lists,
 * and the ids of events already applied (replays change nothing).
 */
export class CreateNotifications1764000000000 implements MigrationInterface {
  name = 'CreateNotifications1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE notifications.threads (
      id char(24) PRIMARY KEY,
      type varchar(16) NOT NULL,
      repo_type varchar(16),
      repo_name varchar(200),
      post_author varchar(96),
      paper_id varchar(200),
      article_id varchar(200),
      article_slug varchar(200),
      item jsonb NOT NULL,
      participants jsonb NOT NULL DEFAULT '[]',
      participant_ids char(24)[] NOT NULL DEFAULT '{}',
      mentioned_ids char(24)[] NOT NULL DEFAULT '{}')`);
    await q.query(`CREATE TABLE notifications.notifications (
      user_id char(24) NOT NULL,
      thread_id char(24) NOT NULL REFERENCES notifications.threads(id),
      read boolean NOT NULL DEFAULT false,
      updated_at timestamptz NOT NULL,
      discussion_event_id varchar(100),
      PRIMARY KEY (user_id, thread_id))`);
    // No index covers `read`: marking thousands read stays a heap-only (HOT) update.
    await q.query(
      `CREATE INDEX notifications_inbox ON notifications.notifications (user_id, updated_at DESC, thread_id DESC)`,
    );
    await q.query(`CREATE TABLE notifications.inbox_state (
      user_id char(24) PRIMARY KEY,
      version bigint NOT NULL DEFAULT 0,
      changed_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE TABLE notifications.settings (
      user_id char(24) PRIMARY KEY,
      values jsonb NOT NULL DEFAULT '{}',
      prepaid_amount varchar(24),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE TABLE notifications.watches (
      user_id char(24) NOT NULL,
      type varchar(8) NOT NULL,
      target varchar(200) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, type, target))`);
    await q.query(`CREATE INDEX watches_target ON notifications.watches (type, lower(target))`);
    await q.query(`CREATE TABLE notifications.applied_events (
      id varchar(140) PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['applied_events', 'watches', 'settings', 'inbox_state', 'notifications', 'threads']) {
      await q.query(`DROP TABLE notifications.${t}`);
    }
  }
}
