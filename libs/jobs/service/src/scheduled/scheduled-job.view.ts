import { type ScheduledJobView } from '@hub/jobs-contract';
import { ScheduleError } from '../jobs/jobs.errors';
import { CronError, nextRun, parseCron } from './cron';
import { type ScheduledJobEntity } from './scheduled-job.entity';

/** Secret names with null values, never the values; no next run while suspended. */
export function toScheduledJobView(s: ScheduledJobEntity): ScheduledJobView {
  const secrets = Object.keys(s.secretValues);
  return {
    type: 'scheduled-job',
    id: s.id,
    schedule: s.schedule,
    suspend: s.suspend,
    concurrency: s.concurrency,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    owner: s.owner,
    createdBy: s.createdBy,
    jobSpec: {
      ...s.jobSpec,
      ...(secrets.length > 0 ? { secrets: Object.fromEntries(secrets.map((k) => [k, null])) } : {}),
    },
    status: { lastJobId: s.lastJobId, nextJobRunAt: s.suspend ? null : (s.nextRunAt?.toISOString() ?? null) },
  };
}

/** Runs a cron read, a schedule the parser refuses becoming a 400 naming the problem. */
export function cronChecked<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof CronError) throw new ScheduleError(e.message);
    throw e;
  }
}

export function nextFrom(schedule: string, after: Date): Date | null {
  return cronChecked(() => nextRun(parseCron(schedule), after));
}
