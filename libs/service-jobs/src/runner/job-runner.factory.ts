import { Logger } from '@nestjs/common';
import { type JobsConfig } from '../jobs.config';
import { dockerReachable } from './docker-args';
import { HostRunner } from './host/host-runner';
import { assertDistributedRunner, findBwrap } from './host/host-mode';
import { type JobRunner } from './job-runner';
import { KubeClient } from './kubernetes/kube-client';
import { inClusterConnection, kubeconfigConnection } from './kubernetes/kube-config';
import { KubernetesRunner } from './kubernetes/kubernetes-runner';
import { LocalRunner } from './local-runner';

/** Whether a container engine answers here (HUB_JOBS_ENGINE=auto|docker|podman; checked once, at boot). */
function engineFound(config: JobsConfig): boolean {
  return config.HUB_JOBS_ENGINE !== 'host' && config.HUB_JOBS_DOCKER === 'auto' && dockerReachable();
}

export interface RunnerContext {
  /** The distributed jobs service (its own process, for many users): no engine and no HUB_JOBS_ENGINE=host stops it. */
  distributed?: boolean;
}

/** The runner HUB_JOBS_RUNNER names, with its connection read at boot (a bad kubeconfig stops the service). */
export function jobRunnerFor(config: JobsConfig, context: RunnerContext = {}): JobRunner {
  if (config.HUB_JOBS_RUNNER === 'kubernetes') {
    const conn =
      config.HUB_JOBS_K8S_AUTH === 'kubeconfig' ? kubeconfigConnection(config.KUBECONFIG) : inClusterConnection();
    return new KubernetesRunner(new KubeClient(conn), {
      namespace: config.HUB_JOBS_K8S_NAMESPACE,
      spaceImage: config.HUB_JOBS_K8S_SPACE_IMAGE,
      podServiceAccount: config.HUB_JOBS_K8S_POD_SERVICE_ACCOUNT,
    });
  }
  if (engineFound(config)) {
    return new LocalRunner({ workDir: config.workDir, runAsUser: config.HUB_JOBS_RUN_AS_USER, docker: true });
  }
  // Decision 0621: a distributed service runs users' code on its machine only when told to.
  if (context.distributed)
    assertDistributedRunner({ runner: 'local', engine: config.HUB_JOBS_ENGINE, engineFound: false });
  const bwrap = findBwrap();
  new Logger('JobRunner').warn(
    config.HUB_JOBS_ENGINE === 'host'
      ? `jobs run in host mode (HUB_JOBS_ENGINE=host): on this machine, each in a bubblewrap sandbox${bwrap ? '' : ', which is not installed: every job will be refused'}`
      : `no container engine found: jobs run in host mode, on this machine, each in a bubblewrap sandbox with no network and the machine's own /usr (dockerImage is not used)${bwrap ? '' : '; bubblewrap is not installed, so every job will be refused'}`,
  );
  return new HostRunner({
    workDir: config.workDir,
    bwrap,
    uidBase: config.HUB_JOBS_HOST_UID_BASE,
    uidCount: config.HUB_JOBS_HOST_UID_COUNT,
  });
}
