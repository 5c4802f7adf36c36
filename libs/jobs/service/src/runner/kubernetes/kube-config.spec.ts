import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunHandle } from '../job-runner';
import { inClusterConfig, kubeconfigFileConfig } from './kube-config';
import { KubernetesRunner } from './kubernetes-runner';

const SA = 'var/run/secrets/kubernetes.io/serviceaccount';
const handle: RunHandle = { kind: 'kubernetes', namespace: 'hub-jobs', job: 'hub-job-0123' };
const settings = { namespace: 'hub-jobs', spaceImage: 'alpine:3' };
/** Everything jest can fake but the clock. */
const TIMERS = [
  'nextTick',
  'setImmediate',
  'setTimeout',
  'setInterval',
  'queueMicrotask',
  'hrtime',
  'performance',
] as const;
const TIMERS_CLEARED = ['clearTimeout', 'clearInterval', 'clearImmediate'] as const;
const b64url = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');

/**
 * How the runner authenticates, through the official client, to a real HTTPS server of the test's
 * own (a self-signed certificate, trusted only as the configured CA): each request it receives is
 * recorded with its Authorization header. The runner's `reap` (a Job DELETE) is the request.
 */
describe('Kubernetes runner: in-cluster and kubeconfig credentials (official client)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kube-config-'));
  const seen: { method: string; url: string; authorization?: string }[] = [];
  let server: Server;
  let port: number;
  const env = { ...process.env };

  beforeAll(async () => {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'],
        ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
        ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'ca.crt')],
      ],
      { stdio: 'ignore' },
    );
    server = createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'ca.crt')) },
      (req, res) => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Success' }));
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(() => {
    jest.useRealTimers();
    process.env = { ...env };
    seen.length = 0;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('in-cluster: a rotated service-account token is read again, and the next request carries the new one', async () => {
    const root = join(dir, 'pod');
    mkdirSync(join(root, SA), { recursive: true });
    writeFileSync(join(root, SA, 'ca.crt'), readFileSync(join(dir, 'ca.crt')));
    writeFileSync(join(root, SA, 'token'), 'projected-token-one');
    process.env['KUBERNETES_SERVICE_HOST'] = '127.0.0.1';
    process.env['KUBERNETES_SERVICE_PORT'] = String(port);
    // Only the clock is faked (the client re-reads a token it has held over 60 s); the sockets are real.
    jest.useFakeTimers({ doNotFake: [...TIMERS, ...TIMERS_CLEARED] });
    const runner = new KubernetesRunner(inClusterConfig(root), settings);

    await runner.reap(handle);
    // The kubelet rotates the projected token (it does so at 80 % of its lifetime, an hour by default).
    writeFileSync(join(root, SA, 'token'), 'projected-token-two');
    jest.setSystemTime(Date.now() + 61_000);
    await runner.reap(handle);

    expect(seen).toEqual([
      {
        method: 'DELETE',
        url: '/apis/batch/v1/namespaces/hub-jobs/jobs/hub-job-0123?propagationPolicy=Background',
        authorization: 'Bearer projected-token-one',
      },
      expect.objectContaining({ method: 'DELETE', authorization: 'Bearer projected-token-two' }),
    ]);
  });

  it('in-cluster outside a pod: a clear error at start', () => {
    delete process.env['KUBERNETES_SERVICE_HOST'];
    expect(() => inClusterConfig(dir)).toThrow(/HUB_JOBS_K8S_AUTH=in-cluster but KUBERNETES_SERVICE_HOST is not set/);
  });

  const kubeconfig = (user: string): string => {
    const file = join(dir, `config-${seen.length}-${Math.random()}`);
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        'current-context: hub',
        'contexts: [{name: hub, context: {cluster: c, user: u}}]',
        `clusters: [{name: c, cluster: {server: "https://127.0.0.1:${port}", certificate-authority: "${join(dir, 'ca.crt')}"}}]`,
        `users: [{name: u, user: ${user}}]`,
      ].join('\n'),
    );
    return file;
  };

  it('kubeconfig with an exec credential plugin: the token the plugin prints', async () => {
    const plugin = join(dir, 'credential-plugin.sh');
    const credential = {
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      kind: 'ExecCredential',
      status: { token: 'token-from-exec-plugin' },
    };
    writeFileSync(plugin, `#!/bin/sh\necho '${JSON.stringify(credential)}'\n`);
    chmodSync(plugin, 0o755);
    const file = kubeconfig(`{exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: "${plugin}"}}`);
    await new KubernetesRunner(kubeconfigFileConfig(file), settings).reap(handle);
    expect(seen.map((s) => s.authorization)).toEqual(['Bearer token-from-exec-plugin']);
  });

  it("kubeconfig with the OIDC auth provider: the provider's ID token", async () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const idToken = `${b64url({ alg: 'RS256' })}.${b64url({ sub: 'hub-jobs', exp })}.signature`;
    const provider = `{name: oidc, config: {client-id: hub, idp-issuer-url: "https://issuer.invalid", id-token: "${idToken}"}}`;
    await new KubernetesRunner(kubeconfigFileConfig(kubeconfig(`{auth-provider: ${provider}}`)), settings).reap(handle);
    expect(seen.map((s) => s.authorization)).toEqual([`Bearer ${idToken}`]);
  });

  it('kubeconfig without a current context: a clear error at start', () => {
    const file = join(dir, 'no-context');
    writeFileSync(file, 'apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n');
    expect(() => kubeconfigFileConfig(file)).toThrow(`kubeconfig ${file}: no current context`);
  });
});
