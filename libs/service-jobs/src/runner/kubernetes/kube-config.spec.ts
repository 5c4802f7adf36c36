import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inClusterConnection, kubeconfigConnection } from './kube-config';

describe('Kubernetes connection config', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kube-config-'));

  it('in-cluster: KUBERNETES_SERVICE_HOST/PORT, the service-account token and CA', () => {
    writeFileSync(join(dir, 'token'), 'sa-token\n');
    writeFileSync(join(dir, 'ca.crt'), 'CA PEM');
    const c = inClusterConnection({ KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '6443' }, dir);
    expect(c).toEqual({ server: 'https://10.0.0.1:6443', token: 'sa-token', ca: Buffer.from('CA PEM') });
    expect(() => inClusterConnection({}, dir)).toThrow(/KUBERNETES_SERVICE_HOST/);
  });

  it("kubeconfig: the current context's server, CA data and client certificate", () => {
    const file = join(dir, 'config');
    writeFileSync(
      file,
      [
        'current-context: b',
        'contexts:',
        '- {name: a, context: {cluster: c1, user: u1}}',
        '- {name: b, context: {cluster: c2, user: u2}}',
        'clusters:',
        '- {name: c1, cluster: {server: "https://one"}}',
        `- {name: c2, cluster: {server: "https://two:6443/", certificate-authority-data: ${Buffer.from('CA2').toString('base64')}}}`,
        'users:',
        '- {name: u1, user: {token: t1}}',
        `- {name: u2, user: {client-certificate-data: ${Buffer.from('CERT').toString('base64')}, client-key-data: ${Buffer.from('KEY').toString('base64')}}}`,
      ].join('\n'),
    );
    expect(kubeconfigConnection(file)).toEqual({
      server: 'https://two:6443',
      token: undefined,
      ca: Buffer.from('CA2'),
      cert: Buffer.from('CERT'),
      key: Buffer.from('KEY'),
      insecureSkipTlsVerify: false,
    });
  });
});
