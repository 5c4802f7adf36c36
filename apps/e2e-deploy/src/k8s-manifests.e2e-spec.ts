import { declaredVars, RESERVED_VARS } from './support/config-vars';
import { byKind, type Container, K8S_BASE, type K8sObject, k8sObjects } from './support/k8s-objects';
import { repoDir, yamlDocuments } from './support/repo-files';
import { configClassesOf, distributedApps, GATEWAY, services } from './support/workspace';

const APPS = distributedApps();
const SERVICES = services();
const SECRET_VARS = ['DATABASE_URL', 'HUB_ADMIN_TOKEN', 'HUB_SECRET_KEY', 'SMTP_URL'];
/** Each app's NATS user, from a Secret of its own (decision 0013). */
const NATS_VARS = ['NATS_USER', 'NATS_PASSWORD'];
const natsSecretOf = (app: string): string => `hub-nats-${app}`;

/**
 * The secrets an app uses: the database for a service (it owns a schema; the gateway never sees
 * the password), the secrets its own config class declares, and the reserved ones.
 */
function secretsOf(app: string): string[] {
  const own = configClassesOf(app)
    .filter((c) => c.name !== 'HubConfig')
    .flatMap((c) => declaredVars(c.file));
  const database = SERVICES.includes(app) ? ['DATABASE_URL'] : [];
  return [
    ...new Set([...database, ...own.filter((v) => SECRET_VARS.includes(v)), ...RESERVED_VARS, ...NATS_VARS]),
  ].sort();
}

function one(kind: string, name: string): K8sObject {
  const found = byKind(kind).filter((o) => o.metadata.name === name);
  if (found.length !== 1) throw new Error(`expected one ${kind} ${name}, found ${found.length}`);
  return found[0];
}

function podLabels(o: K8sObject): Record<string, string> {
  return o.spec?.template?.metadata?.labels ?? {};
}

function matches(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  return Object.keys(selector ?? {}).length > 0 && Object.entries(selector ?? {}).every(([k, v]) => labels[k] === v);
}

describe('k8s/base', () => {
  const configMap = one('ConfigMap', 'hub-config');
  const secret = one('Secret', 'hub-secrets');

  it('kustomization lists every manifest but the Secret examples, and only files that exist', () => {
    const k = yamlDocuments(`${K8S_BASE}/kustomization.yaml`)[0] as { namespace?: string; resources: string[] };
    const manifests = repoDir(K8S_BASE).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    // Each object names its namespace (the runner's Role lives in hub-jobs): no override here.
    expect(k.namespace).toBeUndefined();
    expect([...k.resources].sort()).toEqual(manifests.filter((f) => !f.endsWith('.example.yaml')));
  });

  it('has a NATS Secret example per app, its user named after it, and the generated NATS permissions as a ConfigMap', () => {
    for (const app of APPS) {
      const s = one('Secret', natsSecretOf(app));
      expect({
        app,
        user: s.stringData?.['NATS_USER'],
        placeholder: s.stringData?.['NATS_PASSWORD']?.includes('CHANGE_ME'),
      }).toEqual({ app, user: app, placeholder: true });
    }
    const k = yamlDocuments(`${K8S_BASE}/kustomization.yaml`)[0] as {
      configMapGenerator?: { name: string; files: string[] }[];
    };
    expect(k.configMapGenerator).toEqual([
      expect.objectContaining({ name: 'hub-nats-authorization', files: ['nats/authorization.conf'] }),
    ]);
  });

  it('keeps every manifest in the base or an overlay: a file left in k8s/ itself would never be applied', () => {
    expect(repoDir('k8s').filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))).toEqual([]);
  });

  it('puts everything in the hub namespace, but the Role, RoleBinding and NetworkPolicy of the jobs in hub-jobs', () => {
    expect(one('Namespace', 'hub').metadata.name).toBe('hub');
    expect(one('Namespace', 'hub-jobs').metadata.name).toBe('hub-jobs');
    const elsewhere = k8sObjects().filter(({ obj }) => obj.kind !== 'Namespace' && obj.metadata.namespace !== 'hub');
    expect(
      elsewhere.map(({ file, obj }) => `${file}: ${obj.kind} ${obj.metadata.namespace}/${obj.metadata.name}`),
    ).toEqual([
      'jobs-network-policy.yaml: NetworkPolicy hub-jobs/jobs-isolation',
      'jobs-rbac.yaml: Role hub-jobs/jobs-runner',
      'jobs-rbac.yaml: RoleBinding hub-jobs/jobs-runner',
    ]);
  });

  it('keeps secrets in the Secret example, as placeholders, and out of the ConfigMap', () => {
    expect(Object.keys(secret.stringData ?? {}).sort()).toEqual([...SECRET_VARS].sort());
    expect(Object.values(secret.stringData ?? {}).every((v) => v.includes('CHANGE_ME'))).toBe(true);
    expect(Object.keys(configMap.data ?? {}).filter((k) => SECRET_VARS.includes(k))).toEqual([]);
  });

  it('has a Deployment per app and nothing else', () => {
    expect(
      byKind('Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual([...APPS].sort());
  });

  describe.each(APPS)('Deployment %s', (app) => {
    // Not one(): a missing Deployment fails here, without stopping the rest of the file from running.
    const found = byKind('Deployment').filter((d) => d.metadata.name === app);
    const dep: K8sObject = found[0] ?? { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: app } };
    const pod = dep.spec?.template?.spec;
    const containers = pod?.containers ?? [];
    const each = (check: (c: Container) => unknown): unknown[] => containers.map(check);

    it('exists, once', () => {
      expect(found).toHaveLength(1);
    });

    it('runs 2 replicas of its own image, selected by its pod labels', () => {
      expect(dep.spec?.replicas).toBe(2);
      expect(containers.map((c) => c.image?.split(':')[0])).toEqual([`hub-services/${app}`]);
      const sel = dep.spec?.selector as { matchLabels?: Record<string, string> } | undefined;
      expect(matches(sel?.matchLabels, podLabels(dep))).toBe(true);
    });

    it('probes liveness on /health/live and readiness on /health/ready, at the container port', () => {
      expect(each((c) => [c.livenessProbe?.httpGet?.path, c.readinessProbe?.httpGet?.path])).toEqual(
        containers.map(() => ['/health/live', '/health/ready']),
      );
      for (const c of containers) {
        const ports = (c.ports ?? []).flatMap((p) => [p.name, p.containerPort]);
        expect(ports).toContain(c.livenessProbe?.httpGet?.port);
        expect(ports).toContain(c.readinessProbe?.httpGet?.port);
        expect(ports).toContain(8080);
      }
    });

    it('runs as non-root on a read-only root filesystem without privilege escalation', () => {
      expect(pod?.securityContext?.runAsNonRoot).toBe(true);
      // The image's USER is a name; the kubelet can only verify runAsNonRoot for a numeric uid.
      expect(pod?.securityContext?.runAsUser).toBeGreaterThan(0);
      expect(each((c) => c.securityContext)).toEqual(
        containers.map(() =>
          expect.objectContaining({
            runAsNonRoot: true,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
          }),
        ),
      );
    });

    it('has CPU and memory requests and limits', () => {
      for (const c of containers) {
        expect(Object.keys(c.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
        expect(Object.keys(c.resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
      }
    });

    it('reads settings from the ConfigMap and secrets key by key from the Secret', () => {
      for (const c of containers) {
        expect(c.envFrom).toEqual([{ configMapRef: { name: configMap.metadata.name } }]);
        for (const e of c.env ?? []) {
          expect(e.value).toBeUndefined();
          const from = NATS_VARS.includes(e.name) ? one('Secret', natsSecretOf(app)) : secret;
          expect(e.valueFrom?.secretKeyRef?.name).toBe(from.metadata.name);
          expect(Object.keys(from.stringData ?? {})).toContain(e.valueFrom?.secretKeyRef?.key);
        }
        expect((c.env ?? []).map((e) => e.name)).toContain('HUB_SECRET_KEY');
      }
    });

    it('gets exactly the secrets it uses (the gateway never sees the database password)', () => {
      expect(containers.flatMap((c) => (c.env ?? []).map((e) => e.name)).sort()).toEqual(secretsOf(app));
    });

    it('is scraped by Prometheus on its metrics path and port', () => {
      expect(dep.spec?.template?.metadata?.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '9090',
        'prometheus.io/path': '/metrics',
      });
    });

    it('scales on 70 % CPU with its own HPA, from 2 replicas', () => {
      const hpa = byKind('HorizontalPodAutoscaler').filter((h) => h.spec?.scaleTargetRef?.name === app);
      expect(hpa).toHaveLength(1);
      expect(hpa[0].spec?.scaleTargetRef?.kind).toBe('Deployment');
      expect(hpa[0].spec?.minReplicas).toBe(2);
      expect(hpa[0].spec?.metrics).toEqual([
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
      ]);
    });

    it('has a Service that selects its pods', () => {
      const svc = one('Service', app);
      expect(matches(svc.spec?.selector as Record<string, string>, podLabels(dep))).toBe(true);
    });
  });

  it('exposes the gateway in the cluster on port 80 to container port 8080', () => {
    const svc = one('Service', GATEWAY);
    const container = one('Deployment', GATEWAY).spec?.template?.spec.containers[0];
    expect(svc.spec?.type ?? 'ClusterIP').toBe('ClusterIP');
    const [port] = svc.spec?.ports ?? [];
    expect(port.port).toBe(80);
    const target = container?.ports?.find((p) => p.name === port.targetPort || p.containerPort === port.targetPort);
    expect(target?.containerPort).toBe(8080);
  });

  it('never gives the gateway the database password', () => {
    const env = one('Deployment', GATEWAY).spec?.template?.spec.containers.flatMap((c) =>
      (c.env ?? []).map((e) => e.name),
    );
    expect(env).not.toContain('DATABASE_URL');
  });

  it.each(SERVICES)('exposes only the metrics port of %s (RPC goes over NATS)', (app) => {
    expect(one('Service', app).spec?.ports?.map((p) => [p.name, p.port])).toEqual([['metrics', 9090]]);
  });

  it('keeps a gateway pod up through voluntary disruptions', () => {
    const pdb = byKind('PodDisruptionBudget').filter((p) =>
      matches(
        (p.spec?.selector as { matchLabels?: Record<string, string> })?.matchLabels,
        podLabels(one('Deployment', GATEWAY)),
      ),
    );
    expect(pdb).toHaveLength(1);
  });

  describe('Job hub-migrate', () => {
    const job = one('Job', 'hub-migrate');
    const pod = job.spec?.template?.spec;
    const runners = [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])];

    it('runs `node main.js migrate` in the image of every service', () => {
      expect(runners.map((c) => [c.image?.split(':')[0], c.command]).sort()).toEqual(
        SERVICES.map((s) => [`hub-services/${s}`, ['node', 'main.js', 'migrate']]).sort(),
      );
    });

    it('retries a bounded number of times, cleans up after itself and never restarts in place forever', () => {
      expect(job.spec?.backoffLimit).toBeGreaterThan(0);
      expect(job.spec?.ttlSecondsAfterFinished).toBeGreaterThan(0);
      expect(['Never', 'OnFailure']).toContain(pod?.restartPolicy);
    });

    it('reaches the database through the Secret, as non-root', () => {
      expect(pod?.securityContext?.runAsNonRoot).toBe(true);
      for (const c of runners) {
        expect(c.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef?.name).toBe(secret.metadata.name);
        expect(c.envFrom).toEqual([{ configMapRef: { name: configMap.metadata.name } }]);
      }
    });
  });
});
