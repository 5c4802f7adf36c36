import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HubConfig, SecretBox } from '@hub/config';

export class JobsConfig extends HubConfig {
  /** Where jobs run: `local` (child processes or `docker run` on this machine, for trusted users) or `kubernetes` (a batch/v1 Job per run). */
  @IsIn(['local', 'kubernetes'], { message: 'HUB_JOBS_RUNNER must be local or kubernetes' })
  HUB_JOBS_RUNNER: string = 'local';

  /** Key that seals job secrets at rest (AES-256-GCM). Required by the jobs service; the all-in-one hub keeps a generated one under HUB_DATA_DIR when unset. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'HUB_SECRET_KEY must be at least 16 characters' })
  HUB_SECRET_KEY?: string;

  /** Local runner: `auto` runs `dockerImage` jobs with `docker run` when a Docker engine answers `docker info`; `off` always runs the command on the host. */
  @IsIn(['auto', 'off'], { message: 'HUB_JOBS_DOCKER must be auto or off' })
  HUB_JOBS_DOCKER: string = 'auto';

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

  /** When the hub runs as root, local jobs run as this unprivileged user (uid or name). */
  @IsString()
  HUB_JOBS_RUN_AS_USER: string = 'nobody';

  /** Where jobs run: `auto` (a Docker or Podman engine when one answers, else host mode), `docker`, `podman`, or `host` (this machine, each job sandboxed with bubblewrap, no network; decision 0621). A distributed jobs service without an engine refuses to start unless this is `host`. */
  @IsIn(['auto', 'docker', 'podman', 'host'], { message: 'HUB_JOBS_ENGINE must be auto, docker, podman or host' })
  HUB_JOBS_ENGINE: 'auto' | 'docker' | 'podman' | 'host' = 'auto';

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

  /** A running job's replica touches it this often; one silent for HUB_JOBS_STALE_MS is settled as ERROR. */
  @IsInt()
  @Min(100)
  @Max(600_000)
  HUB_JOBS_HEARTBEAT_MS: number = 2000;

  @IsInt()
  @Min(500)
  @Max(3_600_000)
  HUB_JOBS_STALE_MS: number = 15_000;

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

  get workDir(): string {
    return this.HUB_JOBS_WORK_DIR ?? join(tmpdir(), 'hub-jobs');
  }
}
