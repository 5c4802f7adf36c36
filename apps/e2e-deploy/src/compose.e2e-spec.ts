import { declaredVars, envExampleVars } from './support/config-vars';
import { runProbe } from './support/probe-runner';
import { repoFile, yamlDocuments } from './support/repo-files';
import { ALL_IN_ONE, configClassesOf, deployableApps, GATEWAY, services } from './support/workspace';

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

const APPS = deployableApps();
const SERVICES = services();
/** What the stack runs beside the apps. */
const INFRA = ['postgres', 'nats', 'mailpit'];
/** Apps whose config class reads SMTP_URL: they send mail, through the stack's mail catcher by default. */
const MAILERS = APPS.filter((app) => configClassesOf(app).some((c) => declaredVars(c.file).includes('SMTP_URL')));

describe('docker/docker-compose.yml', () => {
  const compose = yamlDocuments('docker/docker-compose.yml')[0] as {
    services: Record<string, ComposeService>;
    volumes?: Record<string, unknown>;
  };
  const svc = (name: string): ComposeService => {
    const s = compose.services[name];
    if (!s) throw new Error(`no service ${name}`);
    return s;
  };

  it('runs Postgres, NATS, a migration job per service, every app (the services, the gateway, the all-in-one hub) and nothing else', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [...INFRA, ...APPS, ...SERVICES.map((s) => `migrate-${s}`)].sort(),
    );
    // Replaceable (an air-gapped machine's local stand-ins, docker/local), with the upstream images by default.
    expect(svc('postgres').image).toBe('${HUB_POSTGRES_IMAGE:-postgres:15}');
    expect(svc('nats').image).toBe('${HUB_NATS_IMAGE:-nats:2-alpine}');
    expect(svc('mailpit').image).toBe('${HUB_MAIL_IMAGE:-axllent/mailpit:v1.21}');
  });

  it('catches every mail the services send in the bundled mail catcher, unless SMTP_URL says otherwise', () => {
    expect(MAILERS).toEqual(expect.arrayContaining(['credentials', 'notifications']));
    for (const app of MAILERS.filter((a) => a !== ALL_IN_ONE)) {
      expect({ app, smtp: svc(app).environment?.['SMTP_URL'] }).toEqual({
        app,
        smtp: '${SMTP_URL:-smtp://mailpit:1025}',
      });
      expect(svc(app).depends_on?.['mailpit']).toEqual({ condition: 'service_healthy' });
    }
  });

  it('runs NATS with JetStream stored on a volume, healthy only once JetStream answers', () => {
    const nats = svc('nats');
    expect(nats.command).toContain('-js');
    const monitor = nats.command?.[nats.command.indexOf('-m') + 1];
    expect(nats.healthcheck?.test.join(' ')).toContain(`http://127.0.0.1:${monitor}/healthz?js-enabled-only=true`);
    const storeDir = nats.command?.[nats.command.indexOf('-sd') + 1] ?? '';
    const mounts = (nats.volumes ?? []).map((v) => v.split(':'));
    expect(mounts.some(([vol, path]) => compose.volumes && vol in compose.volumes && storeDir.startsWith(path))).toBe(
      true,
    );
  });

  it('builds every app image from docker/Dockerfile with its APP argument', () => {
    for (const [name, s] of Object.entries(compose.services).filter(([, s]) => s.build)) {
      const app = s.build?.args?.['APP'] ?? '';
      expect({
        name,
        app: APPS.includes(app),
        dockerfile: s.build?.dockerfile,
        image: s.image?.startsWith(`hub-services/${app}:`),
      }).toEqual({ name, app: true, dockerfile: 'docker/Dockerfile', image: true });
    }
    expect(APPS.filter((app) => compose.services[app]?.build?.args?.['APP'] !== app)).toEqual([]);
  });

  it.each(SERVICES)('migrate-%s is a one-shot `node main.js migrate` with the service image', (app) => {
    const job = svc(`migrate-${app}`);
    expect(job.command).toEqual(['node', 'main.js', 'migrate']);
    expect(job.restart).toBe('no');
    expect(job.image).toBe(svc(app).image);
    expect(job.depends_on?.['postgres']).toEqual({ condition: 'service_healthy' });
  });

  it.each(SERVICES)('%s waits for Postgres, NATS and its migration, and never migrates itself', (app) => {
    const s = svc(app);
    expect(s.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      nats: { condition: 'service_healthy' },
      [`migrate-${app}`]: { condition: 'service_completed_successfully' },
      ...(MAILERS.includes(app) ? { mailpit: { condition: 'service_healthy' } } : {}),
    });
    expect(s.environment?.['HUB_MIGRATE_ON_START']).toBe('false');
    expect(s.environment?.['DATABASE_URL']).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(s.environment?.['NATS_URL']).toBe('nats://nats:4222');
  });

  it('starts the gateway on port 8080 once every migration completed and every service is healthy', () => {
    const gw = svc(GATEWAY);
    expect(gw.depends_on).toMatchObject(
      Object.fromEntries(
        SERVICES.flatMap((s) => [
          [`migrate-${s}`, { condition: 'service_completed_successfully' }],
          [s, { condition: 'service_healthy' }],
        ]),
      ),
    );
    expect(gw.ports?.some((p) => /:8080$/.test(p))).toBe(true);
  });

  it('has a health check on every long-running service', () => {
    const longRunning = Object.entries(compose.services).filter(([, s]) => s.restart !== 'no');
    expect(longRunning.filter(([, s]) => !s.healthcheck?.test?.length).map(([n]) => n)).toEqual([]);
  });

  it('refuses to start without HUB_ADMIN_TOKEN and HUB_SECRET_KEY', () => {
    const env = { ...svc(GATEWAY).environment };
    expect(env['HUB_ADMIN_TOKEN']).toMatch(/^\$\{HUB_ADMIN_TOKEN:\?.+\}$/);
    for (const app of APPS) {
      expect(svc(app).environment?.['HUB_SECRET_KEY']).toMatch(/^\$\{HUB_SECRET_KEY:\?.+\}$/);
    }
  });

  it('runs the all-in-one hub only under its profile, with its data on a volume', () => {
    const hub = svc(ALL_IN_ONE);
    expect(hub.profiles).toEqual(['all-in-one']);
    expect(hub.build?.args?.['APP']).toBe(ALL_IN_ONE);
    const dataDir = hub.environment?.['HUB_DATA_DIR'] ?? '';
    expect(hub.volumes?.some((v) => v.split(':')[1] === dataDir)).toBe(true);
    expect(hub.environment?.['DATABASE_URL'] ?? hub.environment?.['NATS_URL']).toBeUndefined();
    const others = Object.entries(compose.services).filter(([n]) => n !== ALL_IN_ONE);
    expect(others.filter(([, s]) => s.profiles).map(([n]) => n)).toEqual([]);
  });

  it('ready check passes on a 200 from /health/ready and fails on 503', async () => {
    const test = svc(GATEWAY).healthcheck?.test ?? [];
    expect(test[0]).toBe('CMD');
    await expect(runProbe(test.slice(1), 200)).resolves.toEqual({ code: 0, paths: ['/health/ready'] });
    expect((await runProbe(test.slice(1), 503)).code).toBe(1);
  });

  // Only an app's own class: HubConfig's settings come from the shared blocks, and not all apply to each app.
  it.each(APPS.filter((app) => configClassesOf(app).length > 0))(
    'passes %s every variable its own config class declares',
    (app) => {
      const own = configClassesOf(app)
        .filter((c) => c.name !== 'HubConfig')
        .flatMap((c) => declaredVars(c.file));
      expect(own.filter((v) => !(v in (svc(app).environment ?? {})))).toEqual([]);
    },
  );

  it('documents in docker/.env.example every variable the compose file reads', () => {
    const used = [...repoFile('docker/docker-compose.yml').matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(0);
    const documented = envExampleVars(repoFile('docker/.env.example'));
    expect([...new Set(used)].filter((v) => !documented.includes(v))).toEqual([]);
  });
});
