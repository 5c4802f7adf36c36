import { IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateBy } from 'class-validator';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRegistry } from '@hub/jobs-contract';
import { HubConfig, SecretBox } from '@hub/config';
import { RegistryPolicy } from './jobs/registry-policy';

const listOf = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export class JobsConfig extends HubConfig {
  /** Where jobs run: `local` (a container per job through Docker or Podman, or a host process: HUB_JOBS_ENGINE) or `kubernetes` (a batch/v1 Job per run). */
  @IsIn(['local', 'kubernetes'], { message: 'HUB_JOBS_RUNNER must be local or kubernetes' })
  HUB_JOBS_RUNNER: string = 'local';

  /** Key that seals job secrets at rest (AES-256-GCM). Required by the jobs service; the all-in-one hub keeps a generated one under HUB_DATA_DIR when unset. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'HUB_SECRET_KEY must be at least 16 characters' })
  HUB_SECRET_KEY?: string;

  /**
   * Local runner: what runs each job. `docker` / `podman`: a container of its `dockerImage` through the
   * engine's Docker-compatible API (socket: HUB_JOBS_ENGINE_SOCKET, else DOCKER_HOST, else the engine's
   * usual one); `host`: the command on this machine, sandboxed with bubblewrap, no network (decision
   * 0621); `auto`: Docker's socket, else Podman's, else host. A distributed jobs service without an
   * engine refuses to start unless this is `host`.
   */
  @IsIn(['auto', 'docker', 'podman', 'host'], { message: 'HUB_JOBS_ENGINE must be auto, docker, podman or host' })
  HUB_JOBS_ENGINE: 'auto' | 'docker' | 'podman' | 'host' = 'auto';

  /** The engine's API socket (a path, or unix:// / tcp:// URL). Default: DOCKER_HOST, else /var/run/docker.sock (docker), /run/podman/podman.sock (podman). */
  @IsOptional()
  @IsString()
  HUB_JOBS_ENGINE_SOCKET?: string;

  /** The engine network job containers join: a bridge with no traffic between containers and none to this host or 169.254.0.0/16 (decision 0615). */
  @Matches(/^[a-z0-9][a-z0-9_.-]{0,40}$/, { message: 'HUB_JOBS_NETWORK must be a network name' })
  HUB_JOBS_NETWORK: string = 'hub-jobs';

  /** More destinations job containers may not reach (comma-separated CIDRs, e.g. the hub's private network when its services run on other machines). */
  @IsOptional()
  @Matches(/^(\d{1,3}(\.\d{1,3}){3}\/\d{1,2})(,\d{1,3}(\.\d{1,3}){3}\/\d{1,2})*$/, {
    message: 'HUB_JOBS_BLOCKED_CIDRS must be comma-separated IPv4 CIDRs',
  })
  HUB_JOBS_BLOCKED_CIDRS?: string;

  /**
   * Registries job images may come from although they are loopback, private or link-local or one of
   * this hub's own names (comma-separated `host` or `host:port`; decision 0623). Other registries
   * need no entry; images named without a registry (local ones included) are always allowed.
   */
  @IsOptional()
  @ValidateBy({
    name: 'registryList',
    validator: {
      validate: (v: unknown) =>
        typeof v === 'string' && listOf(v).every((r) => !('error' in parseRegistry(r)) && !r.includes('/')),
      defaultMessage: () => 'HUB_JOBS_ALLOWED_REGISTRIES must be comma-separated registry hosts (host or host:port)',
    },
  })
  HUB_JOBS_ALLOWED_REGISTRIES?: string;

  /** Caps each job container's memory below its flavor's (small machines, tests). Unset: the flavor's RAM. */
  @IsOptional()
  @IsInt()
  @Min(16)
  @Max(4_194_304)
  HUB_JOBS_MEMORY_LIMIT_MB?: number;

  /** Size of each job container's writable /tmp and work directory (tmpfs, counted in its memory). */
  @IsInt()
  @Min(1)
  @Max(1_048_576)
  HUB_JOBS_TMP_SIZE_MB: number = 512;

  /** The user job containers run as (uid:gid; never root). */
  @Matches(/^[1-9]\d{0,9}:\d{1,10}$/, { message: 'HUB_JOBS_CONTAINER_USER must be uid:gid with a non-zero uid' })
  HUB_JOBS_CONTAINER_USER: string = '65534:65534';

  /** Most jobs this runner (replica) runs at once; the rest wait SCHEDULING, in order. */
  @IsInt()
  @Min(1)
  @Max(10_000)
  HUB_JOBS_MAX_RUNNING: number = 8;

  /** Most jobs of one namespace this runner runs at once; the rest wait SCHEDULING, in order. */
  @IsInt()
  @Min(1)
  @Max(10_000)
  HUB_JOBS_MAX_RUNNING_PER_NAMESPACE: number = 4;

  /** Kubernetes runner: the namespace its Jobs, Secrets and Services go to (k8s/base/jobs-rbac.yaml grants exactly that). */
  @Matches(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, {
    message: 'HUB_JOBS_K8S_NAMESPACE must be a Kubernetes namespace name',
  })
  HUB_JOBS_K8S_NAMESPACE: string = 'hub-jobs';

  /** Kubernetes runner: `in-cluster` (service-account token and CA under /var/run/secrets/kubernetes.io/serviceaccount) or `kubeconfig` (KUBECONFIG or ~/.kube/config, its current context). */
  @IsIn(['in-cluster', 'kubeconfig'], { message: 'HUB_JOBS_K8S_AUTH must be in-cluster or kubeconfig' })
  HUB_JOBS_K8S_AUTH: string = 'in-cluster';

  /** Kubernetes runner: the kubeconfig file when HUB_JOBS_K8S_AUTH=kubeconfig. Default: KUBECONFIG, else ~/.kube/config. */
  @IsOptional()
  @IsString()
  KUBECONFIG?: string;

  /** Kubernetes runner: the image that runs `spaceId` jobs (a Space's own image is not built by this hub). */
  @IsString()
  @MinLength(1)
  HUB_JOBS_K8S_SPACE_IMAGE: string = 'python:3.12-slim';

  /** Kubernetes runner: the service account the job pods run as (one with no API rights). */
  @IsOptional()
  @Matches(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, {
    message: 'HUB_JOBS_K8S_POD_SERVICE_ACCOUNT must be a Kubernetes name',
  })
  HUB_JOBS_K8S_POD_SERVICE_ACCOUNT?: string;

  /** Host part of exposed ports: `https://<job_id>--<port>.<HUB_JOBS_DOMAIN>`. */
  @Matches(/^[a-z0-9.-]+$/, { message: 'HUB_JOBS_DOMAIN must be a host name' })
  HUB_JOBS_DOMAIN: string = 'jobs.localhost';

  /** Host of `ssh://<job_id>@<HUB_JOBS_SSH_HOST>`. */
  @Matches(/^[a-z0-9.:-]+$/, { message: 'HUB_JOBS_SSH_HOST must be a host name' })
  HUB_JOBS_SSH_HOST: string = 'ssh.jobs.localhost';

  /** Scratch directories of local jobs (one per run, removed after). Default: <tmpdir>/hub-jobs (the unprivileged job user must reach it). */
  @IsOptional()
  @IsString()
  HUB_JOBS_WORK_DIR?: string;

  /**
   * Host mode: `required` (default) runs a job only where its memory (a cgroup of its own) and
   * disk (sized tmpfs) are capped as in a container, and refuses it elsewhere with the reason;
   * `best-effort` runs it anyway, with only what holds there (RLIMIT_AS for memory), said at start (decision 0626).
   */
  @IsIn(['required', 'best-effort'], { message: 'HUB_JOBS_HOST_LIMITS must be required or best-effort' })
  HUB_JOBS_HOST_LIMITS: 'required' | 'best-effort' = 'required';

  /** Host mode, service running as root: each job runs as a host uid of its own, from this one up (HUB_JOBS_HOST_UID_COUNT of them). */
  @IsInt()
  @Min(1000)
  @Max(4_000_000_000)
  HUB_JOBS_HOST_UID_BASE: number = 1_500_000_000;

  @IsInt()
  @Min(1)
  @Max(1_000_000)
  HUB_JOBS_HOST_UID_COUNT: number = 65_536;

  /** Log lines kept per job (oldest dropped first). */
  @IsInt()
  @Min(10)
  @Max(1_000_000)
  HUB_JOBS_LOG_MAX_LINES: number = 10_000;

  /** Longest kept log line in characters (longer lines are cut). */
  @IsInt()
  @Min(80)
  @Max(1_000_000)
  HUB_JOBS_LOG_MAX_LINE_LENGTH: number = 8192;

  /** Log bytes kept per job at any moment, with HUB_JOBS_LOG_MAX_LINES (oldest dropped first, while it runs). */
  @IsInt()
  @Min(1024)
  @Max(1_073_741_824)
  HUB_JOBS_LOG_MAX_BYTES: number = 16 * 1024 * 1024;

  /**
   * Bytes a second of one job's output stored, sustained (decision 0631): past it, lines wait in a
   * ring of the newest and the oldest are dropped, a marker line saying how many.
   */
  @IsInt()
  @Min(1024)
  @Max(1_073_741_824)
  HUB_JOBS_LOG_RATE_BYTES: number = 128 * 1024;

  /**
   * Bytes a second read from one job's output at most (decision 0631): past it the runner pauses
   * reading and the job's writes wait, so a flood costs the engine and the service bounded work.
   */
  @IsInt()
  @Min(65_536)
  @Max(1_073_741_824)
  HUB_JOBS_LOG_READ_BYTES: number = 4 * 1024 * 1024;

  /** A running job's replica touches it this often; one silent for HUB_JOBS_STALE_MS is settled as ERROR. */
  @IsInt()
  @Min(100)
  @Max(600_000)
  HUB_JOBS_HEARTBEAT_MS: number = 2000;

  @IsInt()
  @Min(500)
  @Max(3_600_000)
  HUB_JOBS_STALE_MS: number = 15_000;

  /** Days a finished job (COMPLETED, ERROR, CANCELED) is kept after it finished (decision 0206). */
  @IsNumber()
  @Min(1)
  @Max(3650)
  HUB_JOBS_FINISHED_RETENTION_DAYS: number = 90;

  /** How often each replica looks for due scheduled jobs (a firing is claimed once across replicas). */
  @IsInt()
  @Min(100)
  @Max(60_000)
  HUB_JOBS_SCHEDULER_TICK_MS: number = 1000;

  /** Most active (SCHEDULING or RUNNING) jobs per namespace; a create past it is a 409 naming this variable (decision 0015). */
  @IsInt()
  @Min(1)
  @Max(100_000)
  HUB_JOBS_MAX_ACTIVE_PER_NAMESPACE: number = 50;

  /** Most scheduled jobs per namespace; a create past it is a 409 naming this variable. */
  @IsInt()
  @Min(1)
  @Max(100_000)
  HUB_SCHEDULED_JOBS_MAX_PER_NAMESPACE: number = 100;

  /** Shortest time between two firings of one schedule (checked over its next firings at create); a shorter one is a 400. */
  @IsInt()
  @Min(1)
  @Max(86_400)
  HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS: number = 60;

  /** The box sealing job secrets; the service refuses to start without HUB_SECRET_KEY. */
  secretBox(): SecretBox {
    if (!this.HUB_SECRET_KEY) throw new Error('HUB_SECRET_KEY is required: it encrypts job secrets at rest');
    return new SecretBox(this.HUB_SECRET_KEY, 'hub-job-secrets');
  }

  /** The registry rule of decision 0623, with this hub's own names. */
  registryPolicy(): RegistryPolicy {
    return new RegistryPolicy({
      allowed: listOf(this.HUB_JOBS_ALLOWED_REGISTRIES),
      ownNames: [
        new URL(this.publicUrl).hostname.replace(/^\[|\]$/g, ''),
        this.HUB_JOBS_DOMAIN,
        this.HUB_JOBS_SSH_HOST.replace(/:.*/, ''),
      ],
    });
  }

  get workDir(): string {
    return this.HUB_JOBS_WORK_DIR ?? join(tmpdir(), 'hub-jobs');
  }
}
