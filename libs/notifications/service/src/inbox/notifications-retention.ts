import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { deleteInBatches, repeatPass } from '@hub/persistence';
import { type NotificationsConfig } from '../notifications.config';
import { NOTIFICATIONS_CONFIG, NOTIFICATIONS_DS } from '../notifications.di';

/** The first pass waits this long after boot (a restarted consumer takes back what it held first), then hourly. */
const FIRST_PASS_AFTER_MS = 60_000;
const PASS_EVERY_MS = 3600_000;

/**
 * Retention of the notifications service (decision 0206): read notifications whose last activity
 * is older than HUB_NOTIFICATIONS_READ_RETENTION_DAYS are deleted (unread ones stay, whatever
 * their age), and applied event ids older than the bus retention (no event that old can come
 * back). Batches of 1,000, each its own statement; the inbox counts and version follow (their
 * triggers), so a client's next poll sees the shorter inbox.
 */
@Injectable()
export class NotificationsRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('NotificationsRetention');
  private stop?: () => void;

  constructor(
    @InjectDataSource(NOTIFICATIONS_DS) private readonly ds: DataSource,
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.stop = repeatPass(
      () => this.pass(),
      (err: unknown) => this.logger.warn({ err }, 'notifications retention pass failed'),
      {
        firstAfterMs: FIRST_PASS_AFTER_MS,
        everyMs: PASS_EVERY_MS,
      },
    );
  }

  onApplicationShutdown(): void {
    this.stop?.();
  }

  /** One pass; resolves with the rows deleted. */
  async pass(): Promise<{ notifications: number; appliedEvents: number }> {
    // The outer conditions are checked again on the row it deletes: one made unread meanwhile stays.
    const notifications = await deleteInBatches(
      this.ds,
      `DELETE FROM notifications.notifications n
        USING (SELECT user_id, thread_id FROM notifications.notifications
                WHERE updated_at < now() - make_interval(secs => $1::float8 * 86400) AND read
                ORDER BY updated_at LIMIT $2) old
        WHERE n.user_id = old.user_id AND n.thread_id = old.thread_id AND n.read
          AND n.updated_at < now() - make_interval(secs => $1::float8 * 86400)`,
      [this.config.HUB_NOTIFICATIONS_READ_RETENTION_DAYS],
    );
    const appliedEvents = await deleteInBatches(
      this.ds,
      `DELETE FROM notifications.applied_events WHERE id IN (
         SELECT id FROM notifications.applied_events
          WHERE applied_at < now() - make_interval(secs => $1::float8 * 86400) ORDER BY applied_at LIMIT $2)`,
      [this.config.HUB_BUS_RETENTION_DAYS],
    );
    if (notifications + appliedEvents > 0)
      this.logger.log(
        `deleted ${notifications} read notifications and ${appliedEvents} applied event ids past retention`,
      );
    return { notifications, appliedEvents };
  }
}
