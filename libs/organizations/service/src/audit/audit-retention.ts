import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { keepPartitions, type PartitionPass, repeatPass } from '@hub/persistence';
import { AUDIT_EVENTS_PARTITIONS, AUDIT_MONTHS_AHEAD } from '../migrations/1797000100000-partition-audit-events';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.di';

const PASS_EVERY_MS = 3600_000;

/**
 * Keeps the audit log's monthly partitions (decision 0206): at boot and then every hour, creates
 * the current month's and the next ones' partitions and drops every month wholly older than
 * HUB_AUDIT_RETENTION_DAYS. One replica's pass at a time; a pass that failed is done by the next.
 */
@Injectable()
export class AuditRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditRetention');
  private stop?: () => void;

  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    @Inject(ORGANIZATIONS_CONFIG) private readonly config: OrganizationsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.stop = repeatPass(
      () => this.pass(),
      (err: unknown) => this.logger.warn({ err }, 'audit log partition pass failed'),
      {
        firstAfterMs: 0,
        everyMs: PASS_EVERY_MS,
      },
    );
  }

  onApplicationShutdown(): void {
    this.stop?.();
  }

  async pass(now?: Date): Promise<PartitionPass> {
    const pass = await keepPartitions((work) => this.ds.transaction((m) => work(m)), AUDIT_EVENTS_PARTITIONS, {
      retentionDays: this.config.HUB_AUDIT_RETENTION_DAYS,
      ahead: AUDIT_MONTHS_AHEAD,
      now,
    });
    if (pass.dropped.length > 0 || pass.trimmed > 0)
      this.logger.log({ dropped: pass.dropped, trimmed: pass.trimmed }, 'audit log past retention removed');
    return pass;
  }
}
