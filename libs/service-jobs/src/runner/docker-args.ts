import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { hardwareOf } from '@hub/contracts';
import { type RunRequest } from './job-runner';

/** Processes a job may have at once (docker --pids-limit, ulimit -u for host runs as their own user). */
export const MAX_PROCESSES = 512;

/** The container's name: the supervisor and a restarted service find it by it (and by the `hub.job` label). */
export const containerName = (jobId: string, attempt: number): string => `hub-job-${jobId}-${attempt}`;

/** Variables the docker client itself needs from its environment: a job's own value for them goes inline (`-e K=V`). */
const CLIENT_VARS = new Set(['PATH', 'HOME', 'DOCKER_HOST', 'DOCKER_CONFIG', 'DOCKER_CERT_PATH', 'DOCKER_TLS_VERIFY']);

/** The docker client's environment: the job's variables (read by `-e NAME`) and what the client needs to reach the engine. */
export function dockerClientEnv(req: RunRequest, host: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = { ...req.env, ...req.secrets, JOB_ID: req.jobId };
  for (const k of CLIENT_VARS) {
    if (host[k] !== undefined) env[k] = host[k];
    else delete env[k];
  }
  return env;
}

/**
 * `docker run` argv for a `dockerImage` job with the limits of its flavor. Environment values are
 * not on the command line (other users could read them with `ps`): `-e NAME` takes each from the
 * docker client's environment, which holds the job's own variables only.
 */
export function dockerRunArgs(req: RunRequest & { dockerImage: string }): string[] {
  const hw = hardwareOf(req.flavor);
  const env: Record<string, string> = { ...req.env, ...req.secrets, JOB_ID: req.jobId };
  return [
    'run',
    '--rm',
    '--init',
    '--name',
    containerName(req.jobId, req.attempt),
    '--label',
    `hub.job=${req.jobId}`,
    '--cpus',
    String(hw.vcpu),
    '--memory',
    `${hw.ramGb}g`,
    '--memory-swap',
    `${hw.ramGb}g`,
    '--pids-limit',
    String(MAX_PROCESSES),
    '--security-opt',
    'no-new-privileges',
    '--cap-drop',
    'ALL',
    ...Object.keys(env)
      .sort()
      .flatMap((k) => ['-e', CLIENT_VARS.has(k) ? `${k}=${env[k]}` : k]),
    ...(req.command?.length ? ['--entrypoint', req.command[0]] : []),
    req.dockerImage,
    ...(req.command ?? []).slice(1),
    ...(req.arguments ?? []),
  ];
}

/** Whether a Docker engine answers here: the socket (or DOCKER_HOST) is there and `docker info` succeeds. */
export function dockerReachable(): boolean {
  if (!process.env['DOCKER_HOST'] && !existsSync('/var/run/docker.sock')) return false;
  try {
    execFileSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}
