import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type JobLogsChunk, type JobLogsRpc, JobsRpc } from '@hub/jobs-contract';
import { JobLogs } from '../logs/job-logs';
import { JOBS_DS } from '../jobs.di';
import { JobsStore } from './jobs.store';
import { RpcHandler } from '@hub/messaging';

/** Kept log lines after a sequence number (or the last `tail`), with the job's stage. */
@Injectable()
export class ReadJobLogsUseCase {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    private readonly logStore: JobLogs,
  ) {}

  @RpcHandler(JobsRpc.Logs)
  async execute(dto: JobLogsRpc): Promise<JobLogsChunk> {
    const j = await JobsStore.find(this.ds.manager, dto.namespace, dto.jobId);
    // Stage first, lines second: a stream that sees a final stage has every line written before it.
    const lines = await this.logStore.read(j.id, dto.afterSeq, dto.tail);
    return { lines, stage: j.stage };
  }
}
