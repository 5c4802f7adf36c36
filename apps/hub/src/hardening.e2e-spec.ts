import { OrganizationNamesReconciler } from '@hub/organizations-service';
import {
  auditExportCutOffScenarios,
  describeWithInfra,
  edgeBodiesScenarios,
  edgeLimitsScenarios,
  foreignResourceGroupScenarios,
  freePort,
  hardeningScenarios,
  http,
  liveStreamsScenarios,
  makeUser,
  noAccessScenarios,
  queryDatabase,
  uniqueName,
} from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'hardening-admin-token-for-tests';

/** Issue 7 (security probe) against the all-in-one hub; distributed.e2e-spec runs the same scenarios. */
describeWithInfra('all-in-one hub: hardening (issue 7)', () => {
  describe('with ordinary settings', () => {
    let t: TestHub;
    let metricsPort = 0;

    beforeAll(async () => {
      metricsPort = await freePort();
      t = await startTestHub(
        {
          HUB_ADMIN_TOKEN: ADMIN,
          HUB_REVOKE_RATE_LIMIT_PER_MINUTE: '100000',
          HUB_AUTH_FAILURE_LIMIT_PER_MINUTE: '100000',
          HUB_METRICS_PORT: String(metricsPort),
          HOST: '127.0.0.1',
        },
        { listen: true },
      );
    });

    afterAll(() => t?.close());

    hardeningScenarios(() => ({ baseUrl: t.baseUrl, gateways: [t.baseUrl], adminToken: ADMIN }));
    noAccessScenarios(() => ({ baseUrl: t.baseUrl, gateways: [t.baseUrl], adminToken: ADMIN, jobs: true }));
    liveStreamsScenarios(() => ({ baseUrl: t.baseUrl, gateways: [t.baseUrl], adminToken: ADMIN, jobs: true }));
    auditExportCutOffScenarios(() => ({
      baseUrl: t.baseUrl,
      gateways: [t.baseUrl],
      adminToken: ADMIN,
      databaseUrl: t.db.url,
    }));
    foreignResourceGroupScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));

    it('registers organizations made before the shared name space, so no user can take their names', async () => {
      const target = { baseUrl: t.baseUrl, adminToken: ADMIN };
      const taken = await makeUser(target, 'read', 'clash');
      const old = uniqueName('oldorg');
      // As organizations were before migration 1763900100000: in their table, not in the registry.
      await queryDatabase(
        t.db.url,
        `INSERT INTO organizations.organizations (id, name, fullname, plan, name_registered)
        VALUES ('aaaaaaaaaaaaaaaaaaaaaaa1', $1, $1, 'team', false), ('aaaaaaaaaaaaaaaaaaaaaaa2', $2, $2, 'team', false)`,
        [old, taken.name.toUpperCase()],
      );
      await t.hub.app.get(OrganizationNamesReconciler).runOnce();
      const user = await http(t.baseUrl, 'POST', '/admin/users', {
        token: ADMIN,
        body: { name: old.toUpperCase(), email: `${old}@example.com` },
      });
      expect(user.status).toBe(409);
      const rows = await queryDatabase<{ name: string; name_registered: boolean }>(
        t.db.url,
        `SELECT name, name_registered FROM organizations.organizations WHERE id LIKE 'aaaaaaaaaaaaaaaaaaaaaaa%' ORDER BY id`,
      );
      // The one that clashes with an existing user stays unregistered (logged for the operator).
      expect(rows).toEqual([
        { name: old, name_registered: true },
        { name: taken.name.toUpperCase(), name_registered: false },
      ]);
    });

    it('serves /metrics on HUB_METRICS_PORT, and nothing else there', async () => {
      const base = `http://127.0.0.1:${metricsPort}`;
      // The metrics port is not the API: plain fetch, no OpenAPI document to check against there.
      const scraped = await fetch(`${base}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('hub_http_requests_total');
      expect((await fetch(`${base}/api/whoami-v2`)).status).toBe(404);
    });
  });

  describe('with tight limits behind a trusted proxy', () => {
    let t: TestHub;
    const settings = {
      authFailureLimit: 5,
      bodyTimeoutMs: 1000,
      maxConnections: 8,
      metricsToken: 'metrics-token-for-the-tests',
    };

    beforeAll(async () => {
      t = await startTestHub(
        {
          HUB_ADMIN_TOKEN: ADMIN,
          HUB_TRUSTED_PROXIES: '127.0.0.1',
          HUB_AUTH_FAILURE_LIMIT_PER_MINUTE: String(settings.authFailureLimit),
          HUB_BODY_TIMEOUT_MS: String(settings.bodyTimeoutMs),
          HUB_MAX_CONNECTIONS: String(settings.maxConnections),
          HUB_METRICS_TOKEN: settings.metricsToken,
        },
        { listen: true },
      );
    });

    afterAll(() => t?.close());

    edgeLimitsScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN, ...settings }));
    edgeBodiesScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN, bodyTimeoutMs: settings.bodyTimeoutMs }));

    it('ignores X-Forwarded-For from an untrusted peer (per-address limits count the socket address)', async () => {
      const revoke = (ip: string, xff?: string) =>
        t.fastify.inject({
          method: 'POST',
          url: '/api/credentials/revoke',
          remoteAddress: ip,
          payload: { credentials: ['hf_x'] },
          headers: xff ? { 'x-forwarded-for': xff } : {},
        });
      // 10.1.1.1 is not a trusted proxy: its X-Forwarded-For is ignored, every request is 10.1.1.1's.
      const answers = [];
      for (let i = 0; i < 61; i++) answers.push((await revoke('10.1.1.1', `192.0.2.${i}`)).statusCode);
      expect(answers.filter((s) => s === 429)).toHaveLength(1);
      // Through the trusted proxy, each forwarded client has its own budget.
      expect((await revoke('127.0.0.1', '192.0.2.1')).statusCode).toBe(202);
    });
  });
});
