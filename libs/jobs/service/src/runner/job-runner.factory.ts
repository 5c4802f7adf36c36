import { Logger } from '@nestjs/common';
import { type JobsConfig } from '../jobs.config';
import { connectEngine } from './engine/engine-connect';
import { EngineRunner } from './engine/engine-runner';
import { ensureJobNetwork } from './engine/job-network';
import { HostRunner } from './host/host-runner';
import { assertDistributedRunner, bwrapSizesTmpfs, findBwrap, uncappedReason } from './host/host-mode';
import { JobCgroups } from './host/job-cgroups';
import { type JobRunner } from './job-runner';
import { inClusterConfig, kubeconfigFileConfig } from './kubernetes/kube-config';
import { KubernetesRunner } from './kubernetes/kubernetes-runner';

export interface RunnerContext {
  /** The distributed jobs service (its own process, for many users): no engine and no HUB_JOBS_ENGINE=host stops it. */
  distributed?: boolean;
}

/**
 * The runner HUB_JOBS_RUNNER names, with its connection read at boot (a bad kubeconfig or a missing
 * named engine stops the service): a container engine when one answers, else host mode (bubblewrap).
 */
export async function jobRunnerFor(config: JobsConfig, context: RunnerContext = {}): Promise<JobRunner> {
  if (config.HUB_JOBS_RUNNER === 'kubernetes') {
    const kube =
      config.HUB_JOBS_K8S_AUTH === 'kubeconfig' ? kubeconfigFileConfig(config.KUBECONFIG) : inClusterConfig();
    return new KubernetesRunner(kube, {
      namespace: config.HUB_JOBS_K8S_NAMESPACE,
      spaceImage: config.HUB_JOBS_K8S_SPACE_IMAGE,
      podServiceAccount: config.HUB_JOBS_K8S_POD_SERVICE_ACCOUNT,
    });
  }
  const logger = new Logger('JobRunner');
  const engine = await connectEngine(config.HUB_JOBS_ENGINE, config.HUB_JOBS_ENGINE_SOCKET);
  if (engine) {
    const blocked = config.HUB_JOBS_BLOCKED_CIDRS?.split(',') ?? [];
    const network = await ensureJobNetwork(engine, config.HUB_JOBS_NETWORK, blocked);
    logger.log(
      `jobs run in ${engine.kind} containers (${engine.socket}), network ${network.name} on ${network.bridge}` +
        (network.firewall ? '' : ': firewall rules NOT installed (not root or no iptables): see the jobs README'),
    );
    return new EngineRunner(engine, {
      engine: engine.kind,
      network: network.name,
      user: config.HUB_JOBS_CONTAINER_USER,
      tmpSizeMb: config.HUB_JOBS_TMP_SIZE_MB,
      ...(config.HUB_JOBS_MEMORY_LIMIT_MB ? { memoryLimitMb: config.HUB_JOBS_MEMORY_LIMIT_MB } : {}),
      maxLineLength: config.HUB_JOBS_LOG_MAX_LINE_LENGTH,
      registries: config.registryPolicy(),
    });
  }
  // Decision 0621: a distributed service runs users' code on its machine only when told to.
  if (context.distributed)
    assertDistributedRunner({ runner: 'local', engine: config.HUB_JOBS_ENGINE, engineFound: false });
  const bwrap = findBwrap();
  logger.warn(
    config.HUB_JOBS_ENGINE === 'host'
      ? `jobs run in host mode (HUB_JOBS_ENGINE=host): on this machine, each in a bubblewrap sandbox${bwrap ? '' : ', which is not installed: every job will be refused'}`
      : `no container engine found: jobs run in host mode, on this machine, each in a bubblewrap sandbox with no network and the machine's own /usr (dockerImage is not used)${bwrap ? '' : '; bubblewrap is not installed, so every job will be refused'}`,
  );
  const cgroups = bwrap ? JobCgroups.prepare() : undefined;
  const sizedTmpfs = bwrap ? bwrapSizesTmpfs(bwrap) : false;
  const reason = bwrap
    ? uncappedReason({ cgroupsMissing: typeof cgroups === 'string' ? cgroups : null, sizedTmpfs })
    : null;
  const allowed = config.HUB_JOBS_HOST_LIMITS === 'best-effort';
  // Decision 0626: where a cap cannot hold, jobs are refused with the reason (both run modes start:
  // the Compose file's jobs container without the engine overlay must not stop the stack).
  if (reason) logger[allowed ? 'warn' : 'error'](allowed ? `${reason} (best-effort: running them uncapped)` : reason);
  return new HostRunner({
    workDir: config.workDir,
    bwrap,
    uidBase: config.HUB_JOBS_HOST_UID_BASE,
    uidCount: config.HUB_JOBS_HOST_UID_COUNT,
    ...(sizedTmpfs ? { diskBytes: config.HUB_JOBS_TMP_SIZE_MB * 1024 ** 2 } : {}),
    ...(config.HUB_JOBS_MEMORY_LIMIT_MB ? { memoryLimitMb: config.HUB_JOBS_MEMORY_LIMIT_MB } : {}),
    ...(cgroups instanceof JobCgroups ? { cgroups } : {}),
    ...(reason ? { uncapped: { reason, allowed } } : {}),
  });
}
