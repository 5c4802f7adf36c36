import { type JobFlavor } from '@hub/contracts';

export interface RunRequest {
  jobId: string;
  attempt: number;
  command?: string[];
  arguments?: string[];
  dockerImage?: string;
  flavor: JobFlavor;
  timeoutSeconds?: number | null;
  /** The job's own environment and decrypted secrets: nothing else. */
  env: Record<string, string>;
  onLine(line: string): void;
}

export interface RunExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: string;
}

export interface JobRun {
  done: Promise<RunExit>;
  /** The main process, for resource samples (absent for runners without one here). */
  pid?: number;
  /** Stops the run and everything it started. */
  kill(): void;
}

export interface JobRunner {
  start(req: RunRequest): JobRun;
}

export const JOB_RUNNER = Symbol('JOB_RUNNER');
