import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection, type Subscription } from 'nats';
import {
  addMember,
  createTestDatabase,
  describeWithInfra,
  freePort,
  http,
  makeOrg,
  makeUser,
  NATS_URL_FOR_TESTS,
  type RunningProcess,
  runApp,
  startApp,
  type TestDatabase,
  waitForHttp,
} from '@hub/testing';
import { type MirrorLine } from './jsonl-mirror';

const ADMIN = 'audit-mirror-admin-token-for-tests';

interface Stack {
  baseUrl: string;
  prefix: string;
}

function lines(file: string): MirrorLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as MirrorLine);
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What every mode must show: real actions on the hub reach the example subscriber, once each. */
function mirrorScenarios(stack: () => Stack): void {
  let dir = '';
  let nc: NatsConnection;
  let everything: Subscription;
  const seen = new Set<string>();
  const mirror = (from = 'all'): RunningProcess =>
    startApp('audit-mirror', {
      NATS_URL: NATS_URL_FOR_TESTS,
      HUB_BUS_PREFIX: stack().prefix,
      AUDIT_MIRROR_FILE: join(dir, 'audit.jsonl'),
      AUDIT_MIRROR_FROM: from,
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-mirror-'));
    // Every subject the hub publishes during these tests, to hold against its AsyncAPI document.
    nc = await connect({ servers: NATS_URL_FOR_TESTS });
    everything = nc.subscribe(`${stack().prefix}.hub.>`, {
      callback: (_e, m) => seen.add(m.subject.slice(stack().prefix.length + 1)),
    });
  });

  afterAll(async () => {
    everything?.unsubscribe();
    await nc?.drain();
    rmSync(dir, { recursive: true, force: true });
  });

  it('mirrors the audit events of real admin actions, each once, and resumes after a restart', async () => {
    const file = join(dir, 'audit.jsonl');
    let p = mirror();
    await p.waitForOutput(/audit-mirror: .*hub\.audit\.>/);
    const hub = { baseUrl: stack().baseUrl, adminToken: ADMIN };
    const [alice, bob] = [await makeUser(hub, 'write', 'alice'), await makeUser(hub, 'write', 'bob')];
    const org = await makeOrg(hub, 'enterprise', [alice.name], 'mirror');
    await addMember(hub, org.name, bob.name, 'read');
    const mine = (): MirrorLine[] => lines(file).filter((l) => l.event.organization === org.name);
    // The organization, its first admin, then bob.
    await until('org.create and both org.add_user mirrored', () => (mine().length >= 3 ? true : undefined));
    const user = (l: MirrorLine): unknown => (l.event.data as { user?: string } | undefined)?.user;
    expect(mine().map((l) => [l.subject, l.event.type, l.event.organizationId])).toEqual([
      ['hub.audit.org.create', 'org.create', org.id],
      ['hub.audit.org.add_user', 'org.add_user', org.id],
      ['hub.audit.org.add_user', 'org.add_user', org.id],
    ]);
    expect(mine().slice(1).map(user)).toEqual([alice.name, bob.name]);
    expect(mine()[2].event).toMatchObject({ author: { type: 'system', user: 'system' } });
    expect(mine().every((l) => /^[0-9a-f]{24}$/.test(l.id))).toBe(true);

    // Stopped, the hub goes on; started again, the durable consumer hands over only what is new.
    await p.stop();
    const carol = await makeUser(hub, 'write', 'carol');
    await addMember(hub, org.name, carol.name, 'write');
    p = mirror();
    await until('the change made while stopped', () => (mine().length >= 4 ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    await p.stop();
    expect(mine().map((l) => l.event.type)).toEqual(['org.create', 'org.add_user', 'org.add_user', 'org.add_user']);
    expect(user(mine()[3])).toBe(carol.name);
    expect(new Set(lines(file).map((l) => l.id)).size).toBe(lines(file).length);
  });

  it('publishes only subjects its AsyncAPI document lists', async () => {
    const res = await fetch(`${stack().baseUrl}/.well-known/asyncapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { asyncapi: string; channels: Record<string, { 'x-hub-filter': string }> };
    expect(doc.asyncapi).toBe('3.0.0');
    const filters = Object.values(doc.channels).map((c) => c['x-hub-filter']);
    const listed = (subject: string): boolean =>
      filters.some((f) => (f.endsWith('.>') ? subject.startsWith(f.slice(0, -1)) : f === subject));
    expect(seen.size).toBeGreaterThan(0);
    expect([...seen].filter((s) => !listed(s))).toEqual([]);
    expect([...seen]).toEqual(expect.arrayContaining(['hub.audit.org.create', 'hub.organizations.membership.changed']));
  });

  it('refuses a bad configuration, naming each problem', async () => {
    const r = await runApp('audit-mirror', { NATS_URL: 'localhost', AUDIT_MIRROR_FROM: 'yesterday' }, []);
    expect(r.code).toBe(1);
    expect(r.output).toContain('NATS_URL must be nats://host:port');
    expect(r.output).toContain('AUDIT_MIRROR_FROM must be all, new or an ISO 8601 time');
  });
}

describeWithInfra('the example subscriber against the all-in-one hub started with NATS_URL', () => {
  const prefix = `${process.env['HUB_BUS_PREFIX'] ?? 'mirror'}a`;
  let hub: RunningProcess;
  let db: TestDatabase;
  let baseUrl = '';
  let dataDir = '';

  beforeAll(async () => {
    [db, dataDir] = [await createTestDatabase(), mkdtempSync(join(tmpdir(), 'audit-mirror-hub-'))];
    const port = await freePort();
    // The CI Postgres rather than an embedded one: one database server for the whole test run.
    hub = startApp('hub', {
      PORT: String(port),
      HOST: '127.0.0.1',
      HUB_DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      HUB_MIGRATE_ON_START: 'true',
      NATS_URL: NATS_URL_FOR_TESTS,
      HUB_BUS_PREFIX: prefix,
      HUB_ADMIN_TOKEN: ADMIN,
      HUB_SECRET_KEY: 'a'.repeat(64),
    });
    baseUrl = `http://127.0.0.1:${port}`;
    await waitForHttp(`${baseUrl}/health/ready`, 150_000);
  }, 160_000);

  afterAll(async () => {
    await hub?.stop();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  mirrorScenarios(() => ({ baseUrl, prefix }));
});

describeWithInfra('the example subscriber against the distributed hub', () => {
  const prefix = `${process.env['HUB_BUS_PREFIX'] ?? 'mirror'}d`;
  let db: TestDatabase;
  const procs: RunningProcess[] = [];
  let baseUrl = '';

  beforeAll(async () => {
    db = await createTestDatabase();
    const common = {
      DATABASE_URL: db.url,
      NATS_URL: NATS_URL_FOR_TESTS,
      HUB_BUS_PREFIX: prefix,
      HUB_ADMIN_TOKEN: ADMIN,
      HOST: '127.0.0.1',
    };
    for (const app of ['credentials', 'organizations']) expect((await runApp(app, common, ['migrate'])).code).toBe(0);
    const [pc, po, pg] = await Promise.all([freePort(), freePort(), freePort()]);
    procs.push(startApp('credentials', { ...common, PORT: String(pc) }));
    procs.push(startApp('organizations', { ...common, PORT: String(po) }));
    procs.push(startApp('gateway', { ...common, PORT: String(pg) }));
    baseUrl = `http://127.0.0.1:${pg}`;
    await Promise.all([pc, po, pg].map((p) => waitForHttp(`http://127.0.0.1:${p}/health/ready`, 150_000)));
    expect((await http(baseUrl, 'GET', '/health/ready')).status).toBe(200);
  }, 200_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await db?.drop();
  });

  mirrorScenarios(() => ({ baseUrl, prefix }));
});
