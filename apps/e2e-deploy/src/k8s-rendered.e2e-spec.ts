import { configDefault, healthPaths } from './support/app-facts';
import { CLI_VARS, configVars, declaredVars, RESERVED_VARS } from './support/config-vars';
import { type K8sObject } from './support/k8s-objects';
import { KUBERNETES_MODELS_VERSION, schemaErrors } from './support/k8s-schema';
import { KUSTOMIZATIONS, quantity, renderKustomization } from './support/kustomize';
import { configClassesOf, distributedApps, GATEWAY, services } from './support/workspace';

/** What the jobs service may do with the Kubernetes API (its runner), and nothing more. */
/** The Kubernetes runner's rights (decision 0610), in the namespace jobs run in and nowhere else. */
const JOBS_RBAC = [
  'batch/jobs:create',
  'batch/jobs:get',
  'batch/jobs:list',
  'batch/jobs:watch',
  'batch/jobs:patch',
  'batch/jobs:delete',
  '/pods:get',
  '/pods:list',
  '/pods:watch',
  '/pods/log:get',
  '/secrets:create',
  '/secrets:delete',
  '/services:create',
  '/services:delete',
].sort();
const JOBS_NAMESPACE = 'hub-jobs';
const INGRESS_NAMESPACE = 'ingress-nginx';
const MONITORING_NAMESPACE = 'monitoring';

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}
interface PolicyRule {
  from?: { namespaceSelector?: { matchLabels?: Record<string, string> }; podSelector?: unknown; ipBlock?: unknown }[];
  ports?: { port: number | string }[];
}
type Loose = K8sObject & Record<string, unknown> & { spec?: Record<string, unknown> };
interface PolicyPeer {
  namespaceSelector?: { matchLabels?: Record<string, string> };
  podSelector?: unknown;
  ipBlock?: { cidr: string; except?: string[] };
}
interface JobsPolicySpec {
  podSelector: unknown;
  policyTypes: string[];
  ingress: unknown[];
  egress: { to: PolicyPeer[]; ports?: { port: number | string }[] }[];
}

/** Whether an IPv4 address lies in a CIDR block (IPv6 blocks hold no IPv4 address). */
function cidrHas(cidr: string, ip: string): boolean {
  const [base, bits] = cidr.split('/');
  if (!base || base.includes(':') || ip.includes(':')) return false;
  const num = (a: string): number => a.split('.').reduce((n, o) => n * 256 + Number(o), 0);
  const size = 2 ** (32 - Number(bits));
  return Math.floor(num(ip) / size) === Math.floor(num(base) / size);
}

describe.each(KUSTOMIZATIONS)('kubectl kustomize %s', (dir) => {
  const objects = renderKustomization(dir) as Loose[];
  const of = (kind: string): Loose[] => objects.filter((o) => o.kind === kind);
  const one = (kind: string, name: string): Loose => {
    const found = objects.filter((o) => o.kind === kind && o.metadata.name === name);
    if (found.length !== 1) throw new Error(`${dir}: expected one ${kind} ${name}, found ${found.length}`);
    return found[0];
  };
  const config = (one('ConfigMap', 'hub-config').data ?? {}) as Record<string, string>;
  const deployment = (app: string): Loose => one('Deployment', app);
  const container = (app: string) => deployment(app).spec?.template?.spec.containers[0];
  const port = (app: string, name: string): number | undefined =>
    container(app)?.ports?.find((p) => p.name === name)?.containerPort;

  it(`passes the Kubernetes schemas of kubernetes-models ${KUBERNETES_MODELS_VERSION}, object by object`, () => {
    expect(objects.length).toBeGreaterThan(20);
    expect(
      objects.map((o) => ({ o: `${o.kind} ${o.metadata.name}`, errors: schemaErrors(o) })).filter((r) => r.errors),
    ).toEqual([]);
  });

  it('the schemas are not blind: a wrong type, a bad quantity and a missing required field are refused', () => {
    const broken = structuredClone(deployment(GATEWAY)) as Loose & {
      spec: { replicas: unknown; template: { spec: { containers: Record<string, unknown>[] } } };
    };
    (broken.spec as Record<string, unknown>)['replicas'] = 'two';
    expect(schemaErrors(broken)).toMatch(/replicas/);
    const quantityBroken = structuredClone(deployment(GATEWAY)) as typeof broken;
    quantityBroken.spec.template.spec.containers[0]['resources'] = { limits: { cpu: 'lots' } };
    expect(schemaErrors(quantityBroken)).toMatch(/cpu/);
    const nameless = structuredClone(deployment(GATEWAY)) as typeof broken;
    delete (nameless.spec.template.spec.containers[0] as Record<string, unknown>)['name'];
    expect(schemaErrors(nameless)).toMatch(/name/);
  });

  it('puts every object in the hub namespace but the Role and RoleBinding of the jobs runner, and nothing cluster-wide but the Namespaces', () => {
    const elsewhere = objects.filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== 'hub');
    expect(elsewhere.map((o) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`).sort()).toEqual([
      `NetworkPolicy ${JOBS_NAMESPACE}/jobs-isolation`,
      `Role ${JOBS_NAMESPACE}/jobs-runner`,
      `RoleBinding ${JOBS_NAMESPACE}/jobs-runner`,
    ]);
    expect(
      of('Namespace')
        .map((n) => n.metadata.name)
        .sort(),
    ).toEqual(['hub', JOBS_NAMESPACE]);
    expect(config['HUB_JOBS_K8S_NAMESPACE']).toBe(JOBS_NAMESPACE);
    expect(objects.filter((o) => /^Cluster/.test(o.kind)).map((o) => o.kind)).toEqual([]);
  });

  it('deploys every distributed app (discovered in apps/) with its own image, Service, HPA and PDB', () => {
    expect(
      of('Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual([...distributedApps()].sort());
    for (const app of distributedApps()) {
      const image = container(app)?.image ?? '';
      expect({ app, image: image.split(':')[0].split('/').pop() }).toEqual({ app, image: app });
      expect(of('HorizontalPodAutoscaler').filter((h) => h.spec?.scaleTargetRef?.name === app)).toHaveLength(1);
      expect(of('PodDisruptionBudget').filter((p) => p.metadata.name === app)).toHaveLength(1);
      expect(of('Service').filter((s) => s.metadata.name === app)).toHaveLength(1);
    }
  });

  it("listens where the apps listen: PORT (the config class's default) and HUB_METRICS_PORT, scraped there", () => {
    expect(config['PORT']).toBe(configDefault('PORT'));
    expect(config['HUB_METRICS_PORT']).toMatch(/^\d+$/);
    for (const app of distributedApps()) {
      expect({ app, http: port(app, 'http'), metrics: port(app, 'metrics') }).toEqual({
        app,
        http: Number(config['PORT']),
        metrics: Number(config['HUB_METRICS_PORT']),
      });
      expect(deployment(app).spec?.template?.metadata?.annotations?.['prometheus.io/port']).toBe(
        config['HUB_METRICS_PORT'],
      );
    }
  });

  it('probes the health endpoints the apps serve (read from the health controller)', () => {
    const paths = healthPaths();
    expect(paths).toEqual(expect.arrayContaining(['/health/live', '/health/ready']));
    for (const app of distributedApps()) {
      const c = container(app) as {
        livenessProbe?: { httpGet?: { path?: string } };
        readinessProbe?: { httpGet?: { path?: string } };
        startupProbe?: { httpGet?: { path?: string } };
      };
      const used = [c.livenessProbe, c.readinessProbe, c.startupProbe]
        .map((p) => p?.httpGet?.path)
        .filter((p) => p !== undefined);
      expect({ app, unknown: used.filter((p) => !paths.includes(p)) }).toEqual({ app, unknown: [] });
      expect([c.livenessProbe?.httpGet?.path, c.readinessProbe?.httpGet?.path]).toEqual([
        '/health/live',
        '/health/ready',
      ]);
    }
  });

  it("sets only variables some config class reads, and every variable of each app's own config class", () => {
    const known = new Set([...configVars(), ...RESERVED_VARS, ...CLI_VARS]);
    expect(Object.keys(config).filter((k) => !known.has(k))).toEqual([]);
    for (const app of distributedApps()) {
      const env = (container(app)?.env ?? []).map((e) => e.name);
      expect({ app, unknown: env.filter((k) => !known.has(k)) }).toEqual({ app, unknown: [] });
      const own = configClassesOf(app)
        .filter((c) => c.name !== 'HubConfig')
        .flatMap((c) => declaredVars(c.file));
      expect({ app, missing: own.filter((v) => !(v in config) && !env.includes(v)) }).toEqual({ app, missing: [] });
    }
  });

  it('requests no more than it limits, CPU and memory, in every container', () => {
    const containers = [...of('Deployment'), ...of('Job')].flatMap((o) => o.spec?.template?.spec.containers ?? []);
    for (const c of containers) {
      const { requests = {}, limits = {} } = c.resources ?? {};
      for (const r of ['cpu', 'memory'])
        expect({ c: c.name, r, ok: quantity(requests[r]) <= quantity(limits[r]) }).toEqual({ c: c.name, r, ok: true });
    }
  });

  it('migrates every service in the hub-migrate Job, with the same images as the Deployments', () => {
    const job = one('Job', 'hub-migrate');
    const images = (job.spec?.template?.spec.containers ?? []).map((c) => c.image).sort();
    expect(images).toEqual(
      services()
        .map((s) => container(s)?.image)
        .sort(),
    );
  });

  it('labels the settings and the migration Job, and nothing else, to be applied before the rollout', () => {
    const early = objects
      .filter((o) => o.metadata.labels?.['app.kubernetes.io/component'] === 'pre-rollout')
      .map((o) => `${o.kind} ${o.metadata.name}`);
    expect(early.sort()).toEqual(['ConfigMap hub-config', 'Job hub-migrate']);
  });

  it('gives only the jobs service an API token, bound to exactly the runner rules in its namespace', () => {
    const pods = of('Deployment').map((d) => ({
      app: d.metadata.name,
      spec: d.spec?.template?.spec as unknown as Record<string, unknown>,
    }));
    expect(pods.filter((p) => p.spec['automountServiceAccountToken'] !== false).map((p) => p.app)).toEqual(['jobs']);
    const account = pods.find((p) => p.app === 'jobs')?.spec['serviceAccountName'] as string;
    expect(one('ServiceAccount', account)).toBeDefined();
    const bindings = of('RoleBinding').filter((b) =>
      (b['subjects'] as { kind: string; name: string }[]).some(
        (s) => s.kind === 'ServiceAccount' && s.name === account,
      ),
    );
    const roles = bindings.map((b) => one('Role', (b['roleRef'] as { name: string }).name));
    const granted = roles.flatMap((r) =>
      (r['rules'] as Rule[]).flatMap((rule) =>
        rule.apiGroups.flatMap((g) => rule.resources.flatMap((res) => rule.verbs.map((v) => `${g}/${res}:${v}`))),
      ),
    );
    expect([...new Set(granted)].sort()).toEqual(JOBS_RBAC);
    expect(roles.map((r) => r.metadata.namespace)).toEqual([JOBS_NAMESPACE]);
    expect(of('RoleBinding').length).toBe(bindings.length);
  });

  it('admits traffic from outside only to the gateway, from the ingress controller, and /metrics only from monitoring', () => {
    const policies = of('NetworkPolicy').filter((p) => p.metadata.namespace === 'hub');
    const denyAll = policies.filter(
      (p) => Object.keys((p.spec?.['podSelector'] as object) ?? { x: 1 }).length === 0 && !p.spec?.['ingress'],
    );
    expect(denyAll).toHaveLength(1);
    const rules = policies.flatMap((p) =>
      ((p.spec?.['ingress'] as PolicyRule[] | undefined) ?? []).map((rule) => ({
        selects: p.spec?.['podSelector'] as { matchLabels?: Record<string, string> },
        rule,
      })),
    );
    const metricsPort = Number(config['HUB_METRICS_PORT']);
    const gatewayLabels = deployment(GATEWAY).spec?.template?.metadata?.labels ?? {};
    for (const { selects, rule } of rules) {
      const ports = (rule.ports ?? []).map((p) => Number(p.port));
      const from = (rule.from ?? []).map((f) => f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name']);
      expect(ports.length).toBeGreaterThan(0);
      expect((rule.from ?? []).every((f) => f.ipBlock === undefined && f.podSelector === undefined)).toBe(true);
      if (ports.every((p) => p === metricsPort)) {
        expect(from).toEqual([MONITORING_NAMESPACE]);
      } else {
        expect(
          Object.entries(selects.matchLabels ?? {}).every(([k, v]) => gatewayLabels[k] === v) &&
            'app.kubernetes.io/name' in (selects.matchLabels ?? {}),
        ).toBe(true);
        expect({ ports, from }).toEqual({ ports: [port(GATEWAY, 'http')], from: [INGRESS_NAMESPACE] });
      }
    }
  });

  it('walls the jobs namespace off: restricted pods; out only to DNS and public addresses (not the hub, not 169.254.169.254); in only from the gateway', () => {
    expect(one('Namespace', JOBS_NAMESPACE).metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
    const policies = of('NetworkPolicy').filter((p) => p.metadata.namespace === JOBS_NAMESPACE);
    expect(policies).toHaveLength(1);
    const spec = policies[0].spec as unknown as JobsPolicySpec;
    expect(spec.podSelector).toEqual({});
    expect([...spec.policyTypes].sort()).toEqual(['Egress', 'Ingress']);
    expect(spec.ingress).toEqual([
      {
        from: [
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'hub' } },
            podSelector: { matchLabels: { 'app.kubernetes.io/name': GATEWAY } },
          },
        ],
      },
    ]);
    const peers = spec.egress.flatMap((rule) => rule.to.map((peer) => ({ peer, ports: rule.ports ?? [] })));
    // By selector: only DNS in kube-system; never a namespace of the hub's.
    const bySelector = peers.filter(({ peer }) => !peer.ipBlock);
    expect(bySelector.map(({ peer }) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'])).toEqual([
      'kube-system',
    ]);
    expect(bySelector.flatMap(({ ports }) => ports.map((p) => Number(p.port)))).toEqual([53, 53]);
    // By address: the metadata service, loopback and the private ranges (pods, Services, a database
    // or NATS on the node network) fall in no allowed block; a public address does.
    const blocks = peers.flatMap(({ peer }) => (peer.ipBlock ? [peer.ipBlock] : []));
    const allowed = (ip: string): boolean =>
      blocks.some((b) => cidrHas(b.cidr, ip) && !(b.except ?? []).some((e) => cidrHas(e, ip)));
    for (const ip of ['169.254.169.254', '10.96.0.1', '172.17.0.1', '192.168.1.10', '127.0.0.1', '100.64.0.5']) {
      expect({ ip, allowed: allowed(ip) }).toEqual({ ip, allowed: false });
    }
    expect(allowed('1.1.1.1')).toBe(true);
    expect(allowed('140.82.112.3')).toBe(true);
  });

  it('routes the ingress to the gateway Service, and trusts only private proxy addresses', () => {
    const backends = of('Ingress').flatMap((i) =>
      ((i.spec?.['rules'] as { http: { paths: { backend: { service: { name: string } } }[] } }[]) ?? []).flatMap((r) =>
        r.http.paths.map((p) => p.backend.service.name),
      ),
    );
    expect([...new Set(backends)]).toEqual([GATEWAY]);
    const proxies = (config['HUB_TRUSTED_PROXIES'] ?? '').split(',').filter(Boolean);
    expect(proxies.length).toBeGreaterThan(0);
    expect(
      proxies.filter(
        (p) => !/^(10\.|172\.(1[6-9]|2\d|3[01])\.|192\.168\.|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.)/.test(p),
      ),
    ).toEqual([]);
    expect(
      of('Service')
        .filter((s) => s.spec?.type && s.spec.type !== 'ClusterIP')
        .map((s) => s.metadata.name),
    ).toEqual([]);
  });
});
