import { whoAmI } from '@huggingface/hub';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, http, openApiCheckedFetch, type RunningProcess, startApp } from '@hub/testing';

/**
 * `npm start` as a newcomer meets it: the built all-in-one hub with no configuration at all
 * (embedded PGlite, in-process bus). Needs neither Postgres nor NATS.
 */
describe('all-in-one front door: no configuration, embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hub-front-door-'));
  let hub: RunningProcess;
  let baseUrl = '';
  let demoToken = '';
  let adminToken = '';

  const start = async (): Promise<RunningProcess> => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const p = startApp('hub', { PORT: String(port), HUB_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    await p.waitForOutput(/hubctl finds it there/, 60_000);
    return p;
  };

  beforeAll(async () => {
    hub = await start();
    demoToken = (/token \(shown once\):\n\s+(hf_\w+)/.exec(hub.output()) ?? [])[1] ?? '';
    adminToken = (/Admin token \(generated, shown once.*\n\s+(\S+)/.exec(hub.output()) ?? [])[1] ?? '';
  }, 90_000);

  afterAll(async () => {
    await hub?.stop();
  });

  it('prints a working demo token and the admin token, kept in the data directory', async () => {
    expect(demoToken).toMatch(/^hf_[A-Za-z0-9]{34}$/);
    expect(readFileSync(join(dataDir, 'admin-token'), 'utf8').trim()).toBe(adminToken);
    const res = await http<{ name: string; orgs: { name: string }[] }>(baseUrl, 'GET', '/api/whoami-v2', { token: demoToken });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('demo');
    expect(res.body.orgs.map((o) => o.name)).toEqual(['demo-org']);
  });

  it("answers @huggingface/hub's whoAmI", async () => {
    const me = await whoAmI({ accessToken: demoToken, hubUrl: baseUrl, fetch: openApiCheckedFetch(baseUrl) });
    expect(me).toMatchObject({ type: 'user', name: 'demo' });
    if (me.type !== 'user') throw new Error('expected a user');
    expect(me.auth.accessToken?.role).toBe('write');
    expect(me.auth.accessToken?.createdAt).toBeInstanceOf(Date);
  });

  it('serves OpenAPI 3.1.0 (version 0.0.1, no nullable), its Markdown form, Swagger UI and health; no public metrics', async () => {
    const doc = await http<{ openapi: string; info: { version: string }; paths: Record<string, unknown> }>(baseUrl, 'GET', '/.well-known/openapi.json');
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.info.version).toBe('0.0.1');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/whoami-v2', '/api/credentials/revoke']));
    // No version segment (spec 9), but SCIM's own, which RFC 7644 clients expect (issue 10, decision 0420).
    expect(Object.keys(doc.body.paths).filter((p) => /\/v\d+\//.test(p) && !p.includes('/scim/v2/'))).toEqual([]);
    expect(JSON.stringify(doc.body)).not.toContain('"nullable"');
    const md = await http<string>(baseUrl, 'GET', '/.well-known/openapi.md');
    expect(md.headers.get('content-type')).toContain('text/markdown');
    expect(md.body).toContain('### POST /api/credentials/revoke');
    // The bus contract beside it (decision 0700), served whatever the bus mode.
    const bus = await http<{ asyncapi: string; channels: Record<string, { address: string }> }>(baseUrl, 'GET', '/.well-known/asyncapi.json');
    expect([bus.status, bus.body.asyncapi, bus.headers.get('content-type')]).toEqual([200, '3.0.0', 'application/json; charset=utf-8']);
    expect(Object.values(bus.body.channels).map((c) => c.address)).toEqual(expect.arrayContaining(['hub.audit.{type}', 'hub.credentials.token.revoked']));
    expect((await http<string>(baseUrl, 'GET', '/docs')).status).toBe(200);
    expect((await http(baseUrl, 'GET', '/health/live')).status).toBe(200);
    expect((await http(baseUrl, 'GET', '/health/ready')).status).toBe(200);
    // Neither HUB_METRICS_PORT nor HUB_METRICS_TOKEN: metrics are not served on the API port.
    expect((await http<string>(baseUrl, 'GET', '/metrics')).status).toBe(404);
  });

  it('writes the revocation mail to the log when no SMTP server is configured, without the token', async () => {
    const created = await http<{ token: string }>(baseUrl, 'POST', '/admin/users/demo/tokens', { token: adminToken, body: { role: 'read' } });
    expect(created.status).toBe(201);
    expect((await http(baseUrl, 'POST', '/api/credentials/revoke', { body: { credentials: [created.body.token] } })).status).toBe(202);
    await hub.waitForOutput(/mail to demo@hub\.local: Your access token was revoked/, 10_000);
    expect(hub.output()).not.toContain(created.body.token);
    expect((await http(baseUrl, 'GET', '/api/whoami-v2', { token: created.body.token })).status).toBe(401);
  });

  it('413s a body over the limit', async () => {
    const res = await http(baseUrl, 'POST', '/api/credentials/revoke', { rawBody: JSON.stringify({ credentials: ['x'.repeat(2_000_000)] }), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: expect.stringMatching(/too large/) });
  });

  it('keeps its data and admin token across a restart, and does not make a second demo user', async () => {
    await hub.stop();
    hub = await start();
    expect(hub.output()).toContain('Demo user "demo" exists');
    // The admin token was shown when it was made; now only where it is kept (issue 22 item 10).
    expect(hub.output()).not.toContain(adminToken);
    expect(hub.output()).toContain(`Admin token: kept in ${join(dataDir, 'admin-token')}`);
    expect((await http(baseUrl, 'GET', '/api/whoami-v2', { token: demoToken })).status).toBe(200);
  }, 90_000);
});
