import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestDatabase, credentialsScenarios, describeWithInfra, http, queryDatabase, type SmtpCapture, startSmtpCapture,
  type TestDatabase,
} from '@hub/testing';
import { createHub, type Hub } from './create-hub';

const ADMIN = 'all-in-one-admin-token-for-tests';

/** The all-in-one composition (in-process bus) against a real Postgres database. */
describeWithInfra('all-in-one hub: every service in one process', () => {
  let db: TestDatabase;
  let smtp: SmtpCapture;
  let hub: Hub;
  let baseUrl = '';

  beforeAll(async () => {
    [db, smtp] = await Promise.all([createTestDatabase(), startSmtpCapture()]);
    hub = await createHub({
      DATABASE_URL: db.url,
      HUB_MIGRATE_ON_START: 'true',
      HUB_ADMIN_TOKEN: ADMIN,
      HUB_DATA_DIR: mkdtempSync(join(tmpdir(), 'hub-aio-')),
      SMTP_URL: smtp.url,
      HUB_REVOKE_RATE_LIMIT_PER_MINUTE: '100000',
      LOG_LEVEL: 'warn',
    });
    await hub.app.listen(0, '127.0.0.1');
    baseUrl = await hub.app.getUrl();
  });

  afterAll(async () => {
    await hub?.app.close();
    await smtp?.close();
    await db?.drop();
  });

  credentialsScenarios(() => ({ baseUrl, adminToken: ADMIN, smtp }));

  it('keeps only token hashes and last four characters in the database', async () => {
    const created = await http<{ token: string; id: string }>(baseUrl, 'POST', '/admin/users', {
      token: ADMIN, body: { name: 'hash-check', email: 'hash@example.com' },
    });
    expect(created.status).toBe(201);
    const t = await http<{ token: string; id: string }>(baseUrl, 'POST', '/admin/users/hash-check/tokens', { token: ADMIN, body: { role: 'read' } });
    const rows = await queryDatabase<{ token_hash: string; last4: string }>(db.url, 'SELECT token_hash, last4 FROM credentials.access_tokens WHERE id = $1', [t.body.id]);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.token_hash).not.toContain(t.body.token.slice(3));
    expect(rows[0]?.last4).toBe(t.body.token.slice(-4));
  });
});
