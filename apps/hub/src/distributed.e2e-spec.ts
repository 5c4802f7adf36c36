import { type NatsConnection } from 'nats';
import {
  scimScenarios,
  scimIdentityProviderScenarios,
  scimOktaEntraScenarios,
  membersAdminScenarios,
  adminListsScenarios,
  edgeBodiesScenarios,
  noAccessScenarios,
  auditExportCutOffScenarios,
} from '@hub/testing';
import { subject } from '@hub/contracts';
import {
  makeOrg,
  credentialsScenarios,
  notificationsScenarios,
  describeWithInfra,
  DistributedHub,
  repositoriesScenarios,
  auditScenarios,
  resourceGroupsScenarios,
  papersScenarios,
  mcpScenarios,
  edgeLimitsScenarios,
  hardeningScenarios,
  http,
  makeUser,
  type AuthenticatedNats,
  NATS_TEST_ALL_RIGHTS_USER,
  queryDatabase,
  type SmtpCapture,
  startSmtpCapture,
  type TestDatabase,
} from '@hub/testing';

const ADMIN = 'distributed-admin-token-for-tests';
/** The third gateway's tight limits (it sits behind a trusted proxy: the tests at 127.0.0.1). */
const STRICT = {
  authFailureLimit: 5,
  bodyTimeoutMs: 1000,
  maxConnections: 8,
  metricsToken: 'metrics-token-for-the-tests',
};

/**
 * The distributed mode: gateway, credentials and organizations as separate processes (built
 * apps), talking over real NATS to real Postgres. Two gateway replicas share the services.
 */
describeWithInfra('distributed hub: separate processes over NATS', () => {
  let smtp: SmtpCapture;
  const hub = new DistributedHub({
    busPrefix: 'e2e',
    adminToken: ADMIN,
    env: () => ({
      SMTP_URL: smtp.url,
      HUB_REVOKE_RATE_LIMIT_PER_MINUTE: '100000',
      HUB_AUTH_FAILURE_LIMIT_PER_MINUTE: '100000',
    }),
    services: ['credentials', 'organizations', 'notifications'],
    gateways: [
      {},
      {},
      {
        HUB_TRUSTED_PROXIES: '127.0.0.1',
        HUB_AUTH_FAILURE_LIMIT_PER_MINUTE: String(STRICT.authFailureLimit),
        HUB_BODY_TIMEOUT_MS: String(STRICT.bodyTimeoutMs),
        HUB_MAX_CONNECTIONS: String(STRICT.maxConnections),
        HUB_METRICS_TOKEN: STRICT.metricsToken,
      },
    ],
  });
  let nats: AuthenticatedNats;
  let db: TestDatabase;
  let gatewayA = '';
  let gatewayB = '';
  let gatewayC = '';

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    await hub.start();
    [nats, db] = [hub.nats, hub.db];
    [gatewayA, gatewayB, gatewayC] = hub.gateways;
  }, 360_000);

  afterAll(async () => {
    await hub.stop();
    await smtp?.close();
  });

  credentialsScenarios(() => ({ baseUrl: gatewayA, adminToken: ADMIN, smtp }));
  repositoriesScenarios(() => ({ baseUrl: gatewayA, adminToken: ADMIN }));
  auditScenarios(() => ({ baseUrl: gatewayA, adminToken: ADMIN }));
  resourceGroupsScenarios(() => ({ baseUrl: gatewayA, adminToken: ADMIN }));
  papersScenarios(() => ({ baseUrl: gatewayA, adminToken: ADMIN }));
  mcpScenarios(() => ({ baseUrl: gatewayA, adminToken: ADMIN }));
  scimScenarios(() => ({ baseUrl: gatewayA, adminToken: ADMIN }));
  scimIdentityProviderScenarios(() => ({ baseUrl: gatewayA, adminToken: ADMIN }));
  scimOktaEntraScenarios(() => ({ baseUrl: gatewayA, adminToken: ADMIN }));
  membersAdminScenarios(() => ({ baseUrl: gatewayA, adminToken: ADMIN }));
  adminListsScenarios(() => ({ baseUrl: gatewayA, adminToken: ADMIN }));
  noAccessScenarios(() => ({ baseUrl: gatewayA, gateways: [gatewayA, gatewayB], adminToken: ADMIN, jobs: false }));
  auditExportCutOffScenarios(() => ({
    baseUrl: gatewayA,
    gateways: [gatewayA, gatewayB],
    adminToken: ADMIN,
    databaseUrl: db.url,
  }));

  describe('notifications (issue 9), a separate process fed over JetStream', () => {
    notificationsScenarios(() => ({ baseUrl: gatewayB, adminToken: ADMIN }));
  });

  describe('hardening (issue 7), two gateway replicas', () => {
    hardeningScenarios(() => ({ baseUrl: gatewayA, gateways: [gatewayA, gatewayB], adminToken: ADMIN }));
  });

  describe('hardening (issue 7), a gateway with tight limits', () => {
    edgeLimitsScenarios(() => ({ baseUrl: gatewayC, adminToken: ADMIN, ...STRICT }));
    edgeBodiesScenarios(() => ({ baseUrl: gatewayC, adminToken: ADMIN, bodyTimeoutMs: STRICT.bodyTimeoutMs }));
  });

  it('a revocation through one gateway replica is honoured at once by the other', async () => {
    const t = { baseUrl: gatewayA, adminToken: ADMIN };
    const user = await makeUser(t);
    // Replica B verifies (and caches) the token first.
    expect((await http(gatewayB, 'GET', '/api/whoami-v2', { token: user.token })).status).toBe(200);
    expect(
      (await http(gatewayA, 'POST', '/api/credentials/revoke', { body: { credentials: [user.token] } })).status,
    ).toBe(202);
    // The event crosses NATS in milliseconds; allow a little scheduling slack, not a cache TTL.
    const deadline = Date.now() + 1000;
    let status = 200;
    while (Date.now() < deadline && status !== 401) {
      status = (await http(gatewayB, 'GET', '/api/whoami-v2', { token: user.token })).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(401);
  });

  it('a membership added through one gateway replica shows on the other at once', async () => {
    const t = { baseUrl: gatewayA, adminToken: ADMIN };
    const user = await makeUser(t);
    expect(
      (await http<{ orgs: unknown[] }>(gatewayB, 'GET', '/api/whoami-v2', { token: user.token })).body.orgs,
    ).toEqual([]);
    const org = await makeOrg(t, 'team', [user.name]);
    const deadline = Date.now() + 1000;
    let orgs: { name: string }[] = [];
    while (Date.now() < deadline && orgs.length === 0) {
      orgs = (await http<{ orgs: { name: string }[] }>(gatewayB, 'GET', '/api/whoami-v2', { token: user.token })).body
        .orgs;
      if (orgs.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(orgs.map((o) => o.name)).toEqual([org.name]);
  });

  it('puts admin-published hub events and audit events on the bus', async () => {
    const nc: NatsConnection = await nats.connect(NATS_TEST_ALL_RIGHTS_USER);
    const got: { subject: string; data: Record<string, unknown> }[] = [];
    const sub = nc.subscribe(subject('hub.>'), {
      callback: (_e, m) => got.push({ subject: m.subject, data: JSON.parse(m.string()) as Record<string, unknown> }),
    });
    await nc.flush();
    const payload = { event: { action: 'update', scope: 'repo' }, repo: { type: 'model', name: 'acme/bert' } };
    const res = await http(gatewayA, 'POST', '/admin/events', {
      token: ADMIN,
      body: { subject: 'hub.events.repo.update', payload },
    });
    expect(res.status).toBe(202);
    const owner = await makeUser({ baseUrl: gatewayA, adminToken: ADMIN });
    const org = await makeOrg({ baseUrl: gatewayA, adminToken: ADMIN }, 'team', [owner.name]);
    // Other facts (membership changed, …) come too, in any order: wait for the three this test is about.
    const wanted = ['hub.events.repo.update', 'hub.audit.org.create', 'hub.audit.org.add_user'].map((s) => subject(s));
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && !wanted.every((w) => got.some((g) => g.subject === w)))
      await new Promise((r) => setTimeout(r, 20));
    sub.unsubscribe();
    await nc.drain();
    expect(got).toEqual(
      expect.arrayContaining([
        { subject: subject('hub.events.repo.update'), data: payload },
        expect.objectContaining({
          subject: subject('hub.audit.org.create'),
          data: expect.objectContaining({ type: 'org.create', organization: org.name, organizationId: org.id }),
        }),
        expect.objectContaining({
          subject: subject('hub.audit.org.add_user'),
          data: expect.objectContaining({ type: 'org.add_user', data: { user: owner.name, role: 'admin' } }),
        }),
      ]),
    );
    const bad = await http(gatewayA, 'POST', '/admin/events', {
      token: ADMIN,
      body: { subject: 'hub.audit.org.create', payload },
    });
    expect(bad.status).toBe(400);
  });

  it('writes what it did into Postgres: revoked_at set, mail sent over SMTP', async () => {
    const user = await makeUser({ baseUrl: gatewayA, adminToken: ADMIN });
    await http(gatewayA, 'POST', '/api/credentials/revoke', { body: { credentials: [user.token] } });
    const tokens = await queryDatabase<{ revoked_at: Date | null }>(
      db.url,
      'SELECT revoked_at FROM credentials.access_tokens WHERE id = $1',
      [user.tokenId],
    );
    expect(tokens[0]?.revoked_at).toBeInstanceOf(Date);
    const deadline = Date.now() + 10_000;
    let mails: { sent_via: string | null }[] = [];
    while (Date.now() < deadline) {
      mails = await queryDatabase(db.url, 'SELECT sent_via FROM credentials.email_outbox WHERE recipient = $1', [
        `${user.name}@example.com`,
      ]);
      if (mails[0]?.sent_via) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(mails).toEqual([{ sent_via: 'smtp' }]);
  });
});
