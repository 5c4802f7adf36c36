import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

/**
 * Inside a pod: the API server at KUBERNETES_SERVICE_HOST/PORT, the mounted CA, and the mounted
 * service-account token, which the client re-reads from its file once the copy it holds is over
 * 60 s old (as client-go does): a projected token the kubelet rotates is picked up (decision 0629).
 * `root` prefixes the mount path (tests).
 */
export function inClusterConfig(root = ''): KubeConfig {
  for (const name of ['KUBERNETES_SERVICE_HOST', 'KUBERNETES_SERVICE_PORT'])
    if (!process.env[name])
      throw new Error(`HUB_JOBS_K8S_AUTH=in-cluster but ${name} is not set (not running in a pod?)`);
  const kc = new KubeConfig();
  kc.loadFromCluster(root);
  return kc;
}

/**
 * A kubeconfig file's current context, with everything the official client supports there: token,
 * token file, client certificate, exec credential plugins and the OIDC auth provider.
 */
export function kubeconfigFileConfig(
  path = process.env['KUBECONFIG'] ?? join(homedir(), '.kube', 'config'),
): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  if (!kc.getContextObject(kc.getCurrentContext())) throw new Error(`kubeconfig ${path}: no current context`);
  if (!kc.getCurrentCluster()?.server)
    throw new Error(`kubeconfig ${path}: the current context's cluster has no server`);
  return kc;
}
