import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

/** How to reach the Kubernetes API: its URL, and a bearer token or a client certificate. */
export interface KubeConnection {
  server: string;
  token?: string;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  insecureSkipTlsVerify?: boolean;
}

const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Inside a pod: KUBERNETES_SERVICE_HOST/PORT and the mounted service-account token and CA. */
export function inClusterConnection(env: NodeJS.ProcessEnv = process.env, dir = SA_DIR): KubeConnection {
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'] ?? '443';
  if (!host)
    throw new Error('HUB_JOBS_K8S_AUTH=in-cluster but KUBERNETES_SERVICE_HOST is not set (not running in a pod?)');
  return {
    server: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    token: readFileSync(join(dir, 'token'), 'utf8').trim(),
    ca: readFileSync(join(dir, 'ca.crt')),
  };
}

interface KubeconfigFile {
  'current-context'?: string;
  contexts?: { name: string; context: { cluster: string; user: string } }[];
  clusters?: {
    name: string;
    cluster: {
      server: string;
      'certificate-authority'?: string;
      'certificate-authority-data'?: string;
      'insecure-skip-tls-verify'?: boolean;
    };
  }[];
  users?: {
    name: string;
    user: {
      token?: string;
      'token-file'?: string;
      'client-certificate'?: string;
      'client-certificate-data'?: string;
      'client-key'?: string;
      'client-key-data'?: string;
    };
  }[];
}

const fileOrData = (file?: string, data?: string): Buffer | undefined =>
  data ? Buffer.from(data, 'base64') : file ? readFileSync(file) : undefined;

/** A kubeconfig's current context: server, CA, and a token or client certificate (exec plugins are not supported). */
export function kubeconfigConnection(
  path = process.env['KUBECONFIG'] ?? join(homedir(), '.kube', 'config'),
): KubeConnection {
  const cfg = parse(readFileSync(path, 'utf8')) as KubeconfigFile;
  const ctx = cfg.contexts?.find((c) => c.name === cfg['current-context'])?.context;
  if (!ctx) throw new Error(`kubeconfig ${path}: no current context`);
  const cluster = cfg.clusters?.find((c) => c.name === ctx.cluster)?.cluster;
  const user = cfg.users?.find((u) => u.name === ctx.user)?.user ?? {};
  if (!cluster?.server) throw new Error(`kubeconfig ${path}: cluster ${ctx.cluster} has no server`);
  return {
    server: cluster.server.replace(/\/$/, ''),
    token: user.token ?? (user['token-file'] ? readFileSync(user['token-file'], 'utf8').trim() : undefined),
    ca: fileOrData(cluster['certificate-authority'], cluster['certificate-authority-data']),
    cert: fileOrData(user['client-certificate'], user['client-certificate-data']),
    key: fileOrData(user['client-key'], user['client-key-data']),
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
  };
}
