import { envExampleVars } from './support/config-vars';
import { runProbe } from './support/probe-runner';
import { repoFile, yamlDocuments } from './support/repo-files';

interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  restart?: string;
  ports?: string[];
  volumes?: string[];
  profiles?: string[];
}

const APPS = ['gateway', 'credentials', 'organizations', 'hub'];

describe('docker/docker-compose.yml', () => {
  const compose = yamlDocuments('docker/docker-compose.yml')[0] as { services: Record<string, ComposeService>; volumes?: Record<string, unknown> };
  const svc = (name: string): ComposeService => {
    const s = compose.services[name];
    if (!s) throw new Error(`no service ${name}`);
    return s;
  };

  it('runs Postgres, NATS, two migration jobs, the two services, the gateway and the all-in-one hub', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['credentials', 'gateway', 'hub', 'migrate-credentials', 'migrate-organizations', 'nats', 'organizations', 'postgres'].sort(),
    );
    expect(svc('postgres').image).toBe('postgres:15');
    expect(svc('nats').image).toBe('nats:2');
  });

  it('runs NATS with JetStream stored on a volume', () => {
    const nats = svc('nats');
    expect(nats.command).toContain('-js');
    const storeDir = nats.command?.[nats.command.indexOf('-sd') + 1] ?? '';
    const mounts = (nats.volumes ?? []).map((v) => v.split(':'));
    expect(mounts.some(([vol, path]) => compose.volumes && vol in compose.volumes && storeDir.startsWith(path))).toBe(true);
  });

  it('builds every app image from docker/Dockerfile with its APP argument', () => {
    for (const [name, s] of Object.entries(compose.services).filter(([, s]) => s.build)) {
      const app = s.build?.args?.['APP'] ?? '';
      expect({ name, app: APPS.includes(app), dockerfile: s.build?.dockerfile, image: s.image?.startsWith(`hub-services/${app}:`) })
        .toEqual({ name, app: true, dockerfile: 'docker/Dockerfile', image: true });
    }
  });

  it.each(['credentials', 'organizations'])('migrate-%s is a one-shot `node main.js migrate` with the service image', (app) => {
    const job = svc(`migrate-${app}`);
    expect(job.command).toEqual(['node', 'main.js', 'migrate']);
    expect(job.restart).toBe('no');
    expect(job.image).toBe(svc(app).image);
    expect(job.depends_on?.['postgres']).toEqual({ condition: 'service_healthy' });
  });

  it.each(['credentials', 'organizations'])('%s waits for Postgres, NATS and its migration, and never migrates itself', (app) => {
    const s = svc(app);
    expect(s.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      nats: { condition: 'service_started' },
      [`migrate-${app}`]: { condition: 'service_completed_successfully' },
    });
    expect(s.environment?.['HUB_MIGRATE_ON_START']).toBe('false');
    expect(s.environment?.['DATABASE_URL']).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(s.environment?.['NATS_URL']).toBe('nats://nats:4222');
  });

  it('starts the gateway on port 8080 once both migrations completed and both services are healthy', () => {
    const gw = svc('gateway');
    expect(gw.depends_on).toMatchObject({
      'migrate-credentials': { condition: 'service_completed_successfully' },
      'migrate-organizations': { condition: 'service_completed_successfully' },
      credentials: { condition: 'service_healthy' },
      organizations: { condition: 'service_healthy' },
    });
    expect(gw.ports?.some((p) => /:8080$/.test(p))).toBe(true);
  });

  it('has a health check on every long-running service but NATS (whose image has nothing to probe with)', () => {
    const longRunning = Object.entries(compose.services).filter(([name, s]) => s.restart !== 'no' && name !== 'nats');
    expect(longRunning.filter(([, s]) => !s.healthcheck?.test?.length).map(([n]) => n)).toEqual([]);
  });

  it('refuses to start without HUB_ADMIN_TOKEN and HUB_SECRET_KEY', () => {
    const env = { ...svc('gateway').environment };
    expect(env['HUB_ADMIN_TOKEN']).toMatch(/^\$\{HUB_ADMIN_TOKEN:\?.+\}$/);
    for (const app of ['gateway', 'credentials', 'organizations', 'hub']) {
      expect(svc(app).environment?.['HUB_SECRET_KEY']).toMatch(/^\$\{HUB_SECRET_KEY:\?.+\}$/);
    }
  });

  it('runs the all-in-one hub only under its profile, with its data on a volume', () => {
    const hub = svc('hub');
    expect(hub.profiles).toEqual(['all-in-one']);
    expect(hub.build?.args?.['APP']).toBe('hub');
    const dataDir = hub.environment?.['HUB_DATA_DIR'] ?? '';
    expect(hub.volumes?.some((v) => v.split(':')[1] === dataDir)).toBe(true);
    expect(hub.environment?.['DATABASE_URL'] ?? hub.environment?.['NATS_URL']).toBeUndefined();
    const others = Object.entries(compose.services).filter(([n]) => n !== 'hub');
    expect(others.filter(([, s]) => s.profiles).map(([n]) => n)).toEqual([]);
  });

  it('ready check passes on a 200 from /health/ready and fails on 503', async () => {
    const test = svc('gateway').healthcheck?.test ?? [];
    expect(test[0]).toBe('CMD');
    await expect(runProbe(test.slice(1), 200)).resolves.toEqual({ code: 0, paths: ['/health/ready'] });
    expect((await runProbe(test.slice(1), 503)).code).toBe(1);
  });

  it('documents in docker/.env.example every variable the compose file reads', () => {
    const used = [...repoFile('docker/docker-compose.yml').matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(0);
    const documented = envExampleVars(repoFile('docker/.env.example'));
    expect([...new Set(used)].filter((v) => !documented.includes(v))).toEqual([]);
  });
});
