import { Injectable } from '@nestjs/common';
import { type JobLogsChunk, type JobLogsRpc } from '@hub/jobs-contract';
import { JobLogs } from '../logs/job-logs';
import { JobStore } from './job-store';

/** Kept log lines after a sequence number (or the last `tail`), with the job's stage. */
@Injectable()
export class ReadJobLogsUseCase {
  constructor(
    private readonly store: JobStore,
    private readonly logStore: JobLogs,
  ) {}

  async execute(dto: JobLogsRpc): Promise<JobLogsChunk> {
    const j = await this.store.find(dto.namespace, dto.jobId);
    // Stage first, lines second: a stream that sees a final stage has every line written before it.
    const lines = await this.logStore.read(j.id, dto.afterSeq, dto.tail);
    return { lines, stage: j.stage };
  }
}
