import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { repeatPass } from '@hub/persistence';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.di';
import { RepositoriesStore } from './repositories.store';

/** The first pruning waits this long after boot: a restarted consumer takes back what it held first. */
const FIRST_PRUNE_AFTER_MS = 60_000;
const PRUNE_EVERY_MS = 3600_000;

/**
 * Repo event ids are kept so that an event is applied once per bus id (RepoEventsConsumer). The
 * bus hands out nothing older than its retention (HUB_BUS_RETENTION_DAYS: JetStream's max age
 * drops a message, acked or not), so an id older than that can never come back: it is deleted,
 * a minute after boot and then every hour, and the table stays about one retention period long.
 */
@Injectable()
export class RepoEventIdsPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RepoEventIdsPruner');
  private stop?: () => void;

  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.stop = repeatPass(
      () => this.prune(),
      (err: unknown) => this.logger.warn({ err }, 'pruning repo event ids failed'),
      {
        firstAfterMs: FIRST_PRUNE_AFTER_MS,
        everyMs: PRUNE_EVERY_MS,
      },
    );
  }

  onApplicationShutdown(): void {
    this.stop?.();
  }

  /** Deletes the ids applied longer ago than the bus keeps events; resolves with how many. */
  async prune(): Promise<number> {
    return RepositoriesStore.pruneApplied(this.ds.manager, this.config.HUB_BUS_RETENTION_DAYS);
  }
}
