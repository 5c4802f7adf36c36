import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import {
  AUDIT_STREAM_TEST_ENV,
  consoleScenarios,
  consoleSignIn,
  makeUser,
  queryDatabase,
  consoleSessionScenarios,
  describeWithInfra,
  startWebhookCapture,
  WEBHOOK_TEST_ENV,
  type WebhookCapture,
} from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'console-all-in-one-admin-token';

/** The web console against the all-in-one hub (in-process bus): sessions, then a real browser. */
describeWithInfra('all-in-one hub: the web console', () => {
  let t: TestHub;
  // The same hub with no website set (HUB_WEBSITE_URL empty): its notifications link nowhere.
  let unlinked: TestHub;
  let capture: WebhookCapture;

  beforeAll(async () => {
    capture = await startWebhookCapture();
    t = await startTestHub(
      {
        HUB_ADMIN_TOKEN: ADMIN,
        ...WEBHOOK_TEST_ENV,
        // Audit log streams (their credentials are sealed) to a receiver on loopback, flushed quickly.
        HUB_SECRET_KEY: 'console-all-in-one-secret-key',
        HUB_AUDIT_STREAM_ALLOWED_NETWORKS: AUDIT_STREAM_TEST_ENV.HUB_AUDIT_STREAM_ALLOWED_NETWORKS,
        HUB_AUDIT_STREAM_FLUSH_MS: AUDIT_STREAM_TEST_ENV.HUB_AUDIT_STREAM_FLUSH_MS,
        HUB_AUDIT_STREAM_FAILING_AFTER_S: AUDIT_STREAM_TEST_ENV.HUB_AUDIT_STREAM_FAILING_AFTER_S,
        // A failing delivery runs its whole retry schedule (the deliveries page shows "retries used up").
        HUB_WEBHOOK_SUSPEND_AFTER_FAILURES: '0',
        HUB_JOBS_HEARTBEAT_MS: '300',
        HUB_JOBS_SCHEDULER_TICK_MS: '200',
        // Where notifications link to (decision 0808): a website under a path, given with a trailing slash.
        HUB_WEBSITE_URL: 'https://hub-website.example/site/',
      },
      { listen: true },
    );
    unlinked = await startTestHub({ HUB_ADMIN_TOKEN: ADMIN, HUB_WEBSITE_URL: '' }, { listen: true });
  });

  afterAll(async () => {
    await t?.close();
    await unlinked?.close();
    await capture?.close();
  });

  it('serves the console at / with a strict CSP, and its scripts stay within 60 kB gzipped', async () => {
    const page = await fetch(`${t.baseUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    const html = await page.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const scripts = [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    let gzipped = 0;
    for (const src of scripts) {
      const res = await fetch(`${t.baseUrl}${src}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/javascript/);
      expect(res.headers.get('cache-control')).toContain('immutable');
      gzipped += gzipSync(Buffer.from(await res.arrayBuffer())).length;
    }
    // Issue 28's budget (the build refuses more too: apps/console/vite.config.mjs).
    expect(gzipped).toBeLessThanOrEqual(60 * 1024);
    // API routes keep their paths.
    expect((await fetch(`${t.baseUrl}/api/notifications`)).status).toBe(401);
  });

  it('keeps only the hash of a session id in the database, with its token and expiry', async () => {
    const user = await makeUser({ baseUrl: t.baseUrl, adminToken: ADMIN });
    const s = await consoleSignIn(t.baseUrl, user.token);
    const id = s.cookie.split('=')[1];
    const rows = await queryDatabase<{ session_hash: string; token_id: string; expires_at: Date }>(
      t.db.url,
      'SELECT session_hash, token_id, expires_at FROM credentials.console_sessions WHERE token_id = $1',
      [user.tokenId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].session_hash).toBe(createHash('sha256').update(`hub-session:${id}`).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(id);
    expect(new Date(rows[0].expires_at).getTime()).toBe(Date.parse(s.body.expiresAt));
  });

  consoleSessionScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  consoleScenarios(() => ({
    baseUrl: t.baseUrl,
    adminToken: ADMIN,
    capture,
    website: 'https://hub-website.example/site',
    noLinks: { baseUrl: unlinked.baseUrl, adminToken: ADMIN },
  }));
});
