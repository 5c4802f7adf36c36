import { type JobsConfig } from '../jobs.config';
import { dockerReachable } from './docker-args';
import { type JobRunner } from './job-runner';
import { KubeClient } from './kubernetes/kube-client';
import { inClusterConnection, kubeconfigConnection } from './kubernetes/kube-config';
import { KubernetesRunner } from './kubernetes/kubernetes-runner';
import { LocalRunner } from './local-runner';

/** The runner HUB_JOBS_RUNNER names, with its connection read at boot (a bad kubeconfig stops the service). */
export function jobRunnerFor(config: JobsConfig): JobRunner {
  if (config.HUB_JOBS_RUNNER === 'kubernetes') {
    const conn =
      config.HUB_JOBS_K8S_AUTH === 'kubeconfig' ? kubeconfigConnection(config.KUBECONFIG) : inClusterConnection();
    return new KubernetesRunner(new KubeClient(conn), {
      namespace: config.HUB_JOBS_K8S_NAMESPACE,
      spaceImage: config.HUB_JOBS_K8S_SPACE_IMAGE,
      podServiceAccount: config.HUB_JOBS_K8S_POD_SERVICE_ACCOUNT,
    });
  }
  return new LocalRunner({
    workDir: config.workDir,
    runAsUser: config.HUB_JOBS_RUN_AS_USER,
    docker: config.HUB_JOBS_DOCKER === 'auto' && dockerReachable(),
    spawnHelper: config.HUB_JOBS_SPAWN_HELPER,
  });
}
