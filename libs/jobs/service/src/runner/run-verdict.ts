import { type RunExit } from './job-runner';

/** Why the supervisor stopped a run itself: then its exit is not read as the job's failure. */
export type Stopping = 'cancel' | 'timeout' | 'shutdown';

export interface RunContext {
  /** This run's number (1 = the first). */
  attempt: number;
  /** Attempts the job may have in all. */
  attempts: number;
  /** Failures counted before this run. */
  failures: number;
  stopping?: Stopping;
  /** The runner retries by itself (Kubernetes backoffLimit): its run's end is the job's. */
  retriesItself: boolean;
  timeoutSeconds?: number | null;
}

/**
 * What a run's end means for its job, the supervisor's one decision:
 * - `left`: canceled (the cancel stored CANCELED already; nothing to write);
 * - `end`: the job ends COMPLETED or ERROR, with why and its failure count;
 * - `retry`: another attempt, the job staying RUNNING with the failure count and why.
 */
export type Verdict =
  | { kind: 'left' }
  | { kind: 'end'; stage: 'COMPLETED' | 'ERROR'; message: string | null; failures: number }
  | { kind: 'retry'; message: string; failures: number };

export function verdict(exit: RunExit, c: RunContext): Verdict {
  const timedOut = `Job timed out after ${c.timeoutSeconds ?? 0} seconds`;
  switch (c.stopping) {
    case 'cancel':
      return { kind: 'left' };
    case 'shutdown':
      return {
        kind: 'end',
        stage: 'ERROR',
        message: 'the jobs service stopped while this job ran',
        failures: c.failures + 1,
      };
    case 'timeout':
      return { kind: 'end', stage: 'ERROR', message: timedOut, failures: c.failures + 1 };
  }
  if (exit.timedOut)
    return { kind: 'end', stage: 'ERROR', message: timedOut, failures: c.failures + (exit.failures ?? 1) };
  if (exit.code === 0)
    return { kind: 'end', stage: 'COMPLETED', message: null, failures: c.failures + (exit.failures ?? 0) };
  const failures = c.failures + (exit.failures ?? 1);
  const why = exit.error
    ? `could not start: ${exit.error}`
    : (exit.reason ?? (exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code ?? '?'}`));
  if (c.attempt >= c.attempts || c.retriesItself)
    return { kind: 'end', stage: 'ERROR', message: `Job failed: ${why}`, failures };
  return { kind: 'retry', message: `attempt ${c.attempt} ${why}; retrying`, failures };
}
