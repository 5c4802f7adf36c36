import { scimOktaEntraScenarios } from '@hub/testing';
import { scimScenarios, scimIdentityProviderScenarios, membersAdminScenarios, adminListsScenarios } from '@hub/testing';
import {
  credentialsScenarios,
  describeWithInfra,
  repositoriesScenarios,
  auditScenarios,
  resourceGroupsScenarios,
  papersScenarios,
  mcpScenarios,
  http,
  queryDatabase,
  type SmtpCapture,
  startSmtpCapture,
  AUDIT_STREAM_TEST_ENV,
  auditStreamsScenarios,
  auditStreamDeliveryScenarios,
  startDatadogReceiver,
  type StreamReceiver,
} from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'all-in-one-admin-token-for-tests';

/** The all-in-one composition (in-process bus) against a real Postgres database. */
describeWithInfra('all-in-one hub: every service in one process', () => {
  let smtp: SmtpCapture;
  let datadog: StreamReceiver;
  let t: TestHub;
  let baseUrl = '';

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    datadog = await startDatadogReceiver('dd-api-key-for-tests');
    t = await startTestHub(
      {
        HUB_ADMIN_TOKEN: ADMIN,
        SMTP_URL: smtp.url,
        HUB_REVOKE_RATE_LIMIT_PER_MINUTE: '100000',
        ...AUDIT_STREAM_TEST_ENV,
        HUB_AUDIT_STREAM_DATADOG_URL: datadog.url,
      },
      { listen: true },
    );
    baseUrl = t.baseUrl;
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await datadog?.close();
  });

  credentialsScenarios(() => ({ baseUrl, adminToken: ADMIN, smtp }));
  repositoriesScenarios(() => ({ baseUrl, adminToken: ADMIN }));
  auditScenarios(() => ({ baseUrl, adminToken: ADMIN }));
  auditStreamsScenarios(() => ({ baseUrl, adminToken: ADMIN, databaseUrl: t.db.url, datadog, smtp }));
  auditStreamDeliveryScenarios(() => ({ baseUrl, adminToken: ADMIN, databaseUrl: t.db.url, datadog, smtp }));
  resourceGroupsScenarios(() => ({ baseUrl, adminToken: ADMIN }));
  papersScenarios(() => ({ baseUrl, adminToken: ADMIN }));
  mcpScenarios(() => ({ baseUrl, adminToken: ADMIN }));
  scimScenarios(() => ({ baseUrl, adminToken: ADMIN }));
  scimIdentityProviderScenarios(() => ({ baseUrl, adminToken: ADMIN }));
  scimOktaEntraScenarios(() => ({ baseUrl, adminToken: ADMIN }));
  membersAdminScenarios(() => ({ baseUrl, adminToken: ADMIN }));
  adminListsScenarios(() => ({ baseUrl, adminToken: ADMIN }));

  it('keeps only token hashes and last four characters in the database', async () => {
    const created = await http<{ token: string; id: string }>(baseUrl, 'POST', '/admin/users', {
      token: ADMIN,
      body: { name: 'hash-check', email: 'hash@example.com' },
    });
    expect(created.status).toBe(201);
    const tok = await http<{ token: string; id: string }>(baseUrl, 'POST', '/admin/users/hash-check/tokens', {
      token: ADMIN,
      body: { role: 'read' },
    });
    const rows = await queryDatabase<{ token_hash: string; last4: string }>(
      t.db.url,
      'SELECT token_hash, last4 FROM credentials.access_tokens WHERE id = $1',
      [tok.body.id],
    );
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.token_hash).not.toContain(tok.body.token.slice(3));
    expect(rows[0]?.last4).toBe(tok.body.token.slice(-4));
  });
});
