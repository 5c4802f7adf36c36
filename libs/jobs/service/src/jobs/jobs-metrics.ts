import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge } from 'prom-client';
import { type DataSource } from 'typeorm';
import { HttpMetrics } from '@hub/observability';
import { JOBS_DS } from '../jobs.di';
import { type ActiveStageRow, JobsStore } from './jobs.store';

const ACTIVE = ['SCHEDULING', 'RUNNING'] as const;

/**
 * Jobs not finished yet, by stage, and how long the oldest one has waited in SCHEDULING: read at
 * scrape time by one query on the partial index of active jobs (jobs_active). A job waiting long in
 * SCHEDULING means no runner takes it (caps reached, engine away): the alert rules page on it.
 */
@Injectable()
export class JobsMetrics implements OnApplicationBootstrap {
  constructor(
    private readonly moduleRef: ModuleRef,
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    let registry;
    try {
      registry = this.moduleRef.get(HttpMetrics, { strict: false }).registry;
    } catch {
      return; // no /metrics in this composition (unit tests)
    }
    let reading: Promise<ActiveStageRow[]> | undefined;
    // One query per scrape for both gauges: the registry collects them side by side.
    const read = (): Promise<ActiveStageRow[]> =>
      (reading ??= JobsStore.activeByStage(this.ds.manager).finally(() => setImmediate(() => (reading = undefined))));
    registry.registerMetric(
      new Gauge({
        name: 'hub_jobs_active',
        help: 'Jobs not finished yet, by stage (SCHEDULING: waiting for a runner; RUNNING)',
        labelNames: ['stage'],
        registers: [],
        async collect() {
          const rows = await read();
          for (const stage of ACTIVE) this.set({ stage }, Number(rows.find((r) => r.stage === stage)?.n ?? 0));
        },
      }),
    );
    registry.registerMetric(
      new Gauge({
        name: 'hub_jobs_oldest_scheduling_seconds',
        help: 'How long the oldest job still in SCHEDULING has waited since it was created (0 when none)',
        registers: [],
        async collect() {
          this.set(Number((await read()).find((r) => r.stage === 'SCHEDULING')?.oldest ?? 0));
        },
      }),
    );
  }
}
