import { type JobFlavor } from '@hub/contracts';
import { type LogGateOptions } from '../logs/log-gate';
import { type ProcSample } from './proc-sample';
import { type RunHandle, type RunReport } from '../jobs/job-runs';

export type { RunHandle };

/** One run to start; it reports back through the RunReport (an interface of jobs/). */
export interface RunRequest extends RunReport {
  jobId: string;
  attempt: number;
  command?: string[];
  arguments?: string[];
  dockerImage?: string;
  spaceId?: string;
  flavor: JobFlavor;
  timeoutSeconds?: number | null;
  /** Attempts in all (the Kubernetes runner hands retries to the Job's backoffLimit). */
  attempts?: number;
  expose?: { ports: number[] };
  /** The job's own environment (and the caller service's additions): nothing else of the hub. */
  env: Record<string, string>;
  /** The decrypted secrets, set in the environment too (the Kubernetes runner keeps them in a Secret). */
  secrets: Record<string, string>;
  /** How the log store gates lines (decision 0631): a runner with a process of its own between the job and the service (the spawn helper) applies it there too. */
  log?: LogGateOptions;
  /**
   * Bytes a second to read from the job's output at most (HUB_JOBS_LOG_READ_BYTES): past it the
   * runner stops reading for a moment and the job's writes wait (decision 0631).
   */
  readBytes?: number;
}

export interface RunExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: string;
  /** Why the run ended, when the runner knows better than the exit code (out of memory). */
  reason?: string;
  /** Failed attempts inside the run itself (the Kubernetes Job's own retries); absent for one-attempt runs. */
  failures?: number;
  /** Set when the runner itself saw the deadline pass (Kubernetes activeDeadlineSeconds). */
  timedOut?: boolean;
}

export interface JobRun {
  done: Promise<RunExit>;
  /** The main process, for resource samples (absent for runners without one here). */
  pid?: number;
  /** Where the run lives, kept with the job so an orphan can be stopped after a crash. */
  handle?: RunHandle;
  /** The run's CPU, memory and traffic now, when the runner reads them better than /proc/<pid> (a container's stats). */
  sample?(): Promise<ProcSample | null>;
  /** Stops the run and everything it started. */
  kill(): void;
}

export interface JobRunner {
  /** Whether the runner retries failed attempts itself (then `RunExit.failures` counts them). */
  readonly retriesItself?: boolean;
  /** Resolves once the run is under way (its process spawned, its Kubernetes Job created). */
  start(req: RunRequest): Promise<JobRun>;
  /** Stops what a lost run left behind (a crashed service's process group, container or Kubernetes Job). */
  reap(handle: RunHandle): Promise<void>;
  /** Why this runner cannot run a flavor at all (more than its host has), or null; asked when a job is created. */
  refusal?(flavor: JobFlavor): string | null;
  /** Gets ready before the first run (the local runner starts its spawn helper). */
  open?(): void;
  /** Releases what the runner holds (the local runner's spawn helper), once its runs have ended. */
  close?(): Promise<void>;
}

export const JOB_RUNNER = Symbol('JOB_RUNNER');
