import { Logger } from '@nestjs/common';
import { type JobsConfig } from '../jobs.config';
import { connectEngine } from './engine/engine-connect';
import { EngineRunner } from './engine/engine-runner';
import { ensureJobNetwork } from './engine/job-network';
import { type JobRunner } from './job-runner';
import { KubeClient } from './kubernetes/kube-client';
import { inClusterConnection, kubeconfigConnection } from './kubernetes/kube-config';
import { KubernetesRunner } from './kubernetes/kubernetes-runner';
import { LocalRunner } from './local-runner';

/** The runner HUB_JOBS_RUNNER names, with its connection read at boot (a bad kubeconfig or a missing named engine stops the service). */
export async function jobRunnerFor(config: JobsConfig): Promise<JobRunner> {
  if (config.HUB_JOBS_RUNNER === 'kubernetes') {
    const conn =
      config.HUB_JOBS_K8S_AUTH === 'kubeconfig' ? kubeconfigConnection(config.KUBECONFIG) : inClusterConnection();
    return new KubernetesRunner(new KubeClient(conn), {
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
    });
  }
  logger.warn('no container engine answered (HUB_JOBS_ENGINE=auto): jobs run on this machine as host processes');
  return new LocalRunner({
    workDir: config.workDir,
    runAsUser: config.HUB_JOBS_RUN_AS_USER,
    spawnHelper: config.HUB_JOBS_SPAWN_HELPER,
  });
}
