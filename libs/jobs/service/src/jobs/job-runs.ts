import { type JobFlavor } from '@hub/contracts';
import { type JobEntity } from './job.entity';

/**
 * A process as it can be told apart after a restart: pid reuse is caught by its start time, another
 * machine or container by `bootId` (the boot id and the pid namespace, process-identity.ts).
 */
export interface ProcessIdentity {
  bootId: string;
  pid: number;
  startTicks: number;
}

/**
 * What a restarted service needs to stop a run it lost track of (stored in `jobs.run_handle`): a
 * local process group, a container of the local engine (with its address on the jobs network, for
 * exposed ports), or a Kubernetes Job.
 */
export type RunHandle =
  | { kind: 'process'; process: ProcessIdentity; container?: string }
  | { kind: 'container'; engine: 'docker' | 'podman'; container: string; address?: string }
  | { kind: 'kubernetes'; namespace: string; job: string };

/**
 * What a runner tells about a run while it goes on: the only way news of a run comes back (the
 * supervisor hands one to each run; runners never reach into jobs otherwise).
 */
export interface RunReport {
  /** A line the job printed (stdout and stderr alike). */
  onLine(line: string): void;
  /** Lines a process between the job and the service (the spawn helper) dropped already (decision 0631). */
  onDropped?(lines: number, bytes: number): void;
  /** Progress before the run starts (an image pull), shown as the job's status message while it is SCHEDULING. */
  onProgress?(message: string): void;
  /** Runners retrying by themselves report each failed attempt (count so far) while the run goes on. */
  onAttemptFailed?(failureCount: number): void;
}

/**
 * What the jobs use cases ask of whatever runs jobs (the supervisor, runner/): they store first, then
 * say so here, and never call the supervisor itself. Nest token: `{ provide: JobRuns, useExisting }`.
 */
export abstract class JobRuns {
  /** Why no run could take this flavor here (more than the host has), or null: a create answers 400 with it. */
  abstract refusal(flavor: JobFlavor): string | null;
  /** A job was stored SCHEDULING (its transaction committed): run it once the caps let it. */
  abstract created(job: JobEntity): void;
  /** A job's cancel was stored: stop its run if it is here (other replicas see the stage on their heartbeat). */
  abstract canceled(jobId: string): void;
}
