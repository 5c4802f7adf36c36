import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { repeatPass } from '@hub/persistence';
import { type NotificationsConfig } from '../notifications.config';
import { NOTIFICATIONS_CONFIG, NOTIFICATIONS_DS } from '../notifications.di';
import { ThreadsStore } from '../ingest/threads.store';
import { InboxStore } from './inbox.store';

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
    const m = this.ds.manager;
    const notifications = await InboxStore.deleteReadBefore(m, this.config.HUB_NOTIFICATIONS_READ_RETENTION_DAYS);
    const appliedEvents = await ThreadsStore.deleteAppliedBefore(m, this.config.HUB_BUS_RETENTION_DAYS);
    if (notifications + appliedEvents > 0)
      this.logger.log(
        `deleted ${notifications} read notifications and ${appliedEvents} applied event ids past retention`,
      );
    return { notifications, appliedEvents };
  }
}
