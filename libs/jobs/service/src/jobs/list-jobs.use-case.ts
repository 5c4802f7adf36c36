import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type JobPage, JobsRpc, type ListJobsRpc } from '@hub/jobs-contract';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS } from '../jobs.di';
import { JobsStore } from './jobs.store';
import { toJobView, viewSettings } from './job.view';
import { LabelFilterError } from './jobs.errors';
import { RpcHandler } from '@hub/messaging';

/** A page of a namespace's jobs, newest first, filtered by stages (any of them) and `key=value` labels. */
@Injectable()
export class ListJobsUseCase {
  constructor(
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
  ) {}

  @RpcHandler(JobsRpc.List)
  async execute(dto: ListJobsRpc): Promise<JobPage> {
    const labels: Record<string, string> = {};
    for (const l of dto.labels ?? []) {
      const at = l.indexOf('=');
      if (at < 1) throw new LabelFilterError(l);
      labels[l.slice(0, at)] = l.slice(at + 1);
    }
    const rows = await JobsStore.page(this.ds.manager, {
      namespace: dto.namespace,
      limit: dto.limit,
      labels,
      ...(dto.stages?.length ? { stages: dto.stages } : {}),
      ...(dto.cursor ? { cursor: dto.cursor } : {}),
    });
    const page = rows.slice(0, dto.limit);
    const settings = viewSettings(this.config);
    return {
      jobs: page.map((j) => toJobView(j, settings)),
      ...(rows.length > dto.limit ? { nextCursor: page[page.length - 1].id } : {}),
    };
  }
}
