import { connect, type Socket } from 'node:net';
import { http } from '../http-client';
import { type HubTarget, makeUser, uniqueName } from '../hub-factory';

/** A gateway started with tight limits, behind a trusted proxy at 127.0.0.1 (the tests). */
export interface EdgeLimitsTarget extends HubTarget {
  /** HUB_AUTH_FAILURE_LIMIT_PER_MINUTE */
  authFailureLimit: number;
  /** HUB_BODY_TIMEOUT_MS */
  bodyTimeoutMs: number;
  /** HUB_MAX_CONNECTIONS */
  maxConnections: number;
  /** HUB_METRICS_TOKEN */
  metricsToken: string;
}

const from = (ip: string): Record<string, string> => ({ 'x-forwarded-for': ip });

function openSocket(url: URL): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(Number(url.port), url.hostname, () => resolve(s));
    s.once('error', reject);
  });
}

/** Everything the server sends on a raw socket until it closes it (or the timeout passes). */
function readUntilClosed(s: Socket, timeoutMs: number): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    const done = (closed: boolean): void => {
      clearTimeout(timer);
      resolve({ text, closed });
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    s.on('data', (d: Buffer) => (text += d.toString()));
    s.once('close', () => done(true));
    s.once('error', () => undefined);
  });
}

/** Findings 4, 5, 6 and 11 (metrics token) of issue 7: limits that need their own settings. */
export function edgeLimitsScenarios(target: () => EdgeLimitsTarget): void {
  it('counts failed authentications per client address (from X-Forwarded-For of a trusted proxy) and answers 429 past the limit', async () => {
    const t = target();
    const user = await makeUser(t, 'read', 'limited');
    const guess = (ip: string, token: string): Promise<{ status: number; headers: Headers; body: unknown }> =>
      http(t.baseUrl, 'GET', '/api/whoami-v2', { token, headers: from(ip) });
    const statuses: number[] = [];
    for (let i = 0; i <= t.authFailureLimit; i++) statuses.push((await guess('203.0.113.7', `hf_guess${i}`)).status);
    expect(statuses).toEqual([...Array(t.authFailureLimit).fill(401), 429]);
    const blocked = await guess('203.0.113.7', user.token);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(blocked.body).toEqual({ error: expect.stringMatching(/Too many failed authentications/) });
    // Another address has its own budget.
    expect((await guess('203.0.113.8', user.token)).status).toBe(200);
    expect((await guess('203.0.113.8', 'hf_wrong')).status).toBe(401);
  });

  it('keeps the admin API its own budget: guessed user tokens never lock the operator out, guessed admin tokens are limited', async () => {
    const t = target();
    const admin = (ip: string, token: string): Promise<{ status: number }> =>
      http(t.baseUrl, 'POST', '/admin/users', {
        token,
        headers: from(ip),
        body: { name: uniqueName('op'), email: `${uniqueName('op')}@example.com` },
      });
    for (let i = 0; i <= t.authFailureLimit; i++)
      await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: `hf_lockout${i}`, headers: from('203.0.113.21') });
    expect(
      (await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: 'hf_lockout', headers: from('203.0.113.21') })).status,
    ).toBe(429);
    // The same address, the operator's token: still served (issue 22 item 8).
    expect((await admin('203.0.113.21', t.adminToken)).status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i <= t.authFailureLimit; i++)
      statuses.push((await admin('203.0.113.22', `wrong-admin-${i}`)).status);
    expect(statuses.slice(0, -1).every((s) => s === 401 || s === 403)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Guessing admin tokens spends no user-token budget either.
    const user = await makeUser(t, 'read', 'admin-guess');
    expect(
      (await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: 'hf_wrong', headers: from('203.0.113.22') })).status,
    ).toBe(401);
    expect(
      (await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: user.token, headers: from('203.0.113.22') })).status,
    ).toBe(200);
  });

  it('takes the client address from X-Forwarded-For only from a trusted proxy hop', async () => {
    const t = target();
    // 127.0.0.1 is trusted, so the address is the last untrusted hop: spoofing a left-most entry does not help.
    for (let i = 0; i < t.authFailureLimit; i++) {
      await http(t.baseUrl, 'GET', '/api/whoami-v2', {
        token: `hf_spoof${i}`,
        headers: from(`198.51.100.${i}, 192.0.2.50`),
      });
    }
    expect(
      (
        await http(t.baseUrl, 'GET', '/api/whoami-v2', {
          token: 'hf_spoofed',
          headers: from('198.51.100.200, 192.0.2.50'),
        })
      ).status,
    ).toBe(429);
  });

  it('answers 408 to a body sent too slowly, in our error shape', async () => {
    const t = target();
    const url = new URL(t.baseUrl);
    const s = await openSocket(url);
    const answer = readUntilClosed(s, t.bodyTimeoutMs + 5000);
    s.write(
      `POST /api/credentials/revoke HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"cr`,
    );
    const trickle = setInterval(() => s.writable && s.write('e'), Math.max(50, t.bodyTimeoutMs / 4));
    const started = Date.now();
    const { text, closed } = await answer;
    clearInterval(trickle);
    s.destroy();
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text).toMatch(/x-request-id: \S+/i);
    expect(text).toContain(`{"error":"Request body not received within ${t.bodyTimeoutMs} ms"}`);
    expect(closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(t.bodyTimeoutMs + 3000);
  });

  it(`refuses connections past the cap, and serves again once they close`, async () => {
    const t = target();
    const url = new URL(t.baseUrl);
    const held: Socket[] = [];
    try {
      for (let i = 0; i < t.maxConnections; i++) held.push(await openSocket(url));
      const extra = await openSocket(url);
      held.push(extra);
      const { closed } = await readUntilClosed(extra, 2000);
      expect(closed).toBe(true);
    } finally {
      for (const s of held) s.destroy();
    }
    await new Promise((r) => setTimeout(r, 200));
    expect((await http(t.baseUrl, 'GET', '/health/live')).status).toBe(200);
  });

  it('serves /metrics only with the metrics token', async () => {
    const t = target();
    const anonymous = await http(t.baseUrl, 'GET', '/metrics');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: expect.stringMatching(/HUB_METRICS_TOKEN/) });
    const scraped = await http<string>(t.baseUrl, 'GET', '/metrics', { token: t.metricsToken });
    expect(scraped.status).toBe(200);
    expect(scraped.body).toContain('hub_http_requests_total');
  });
}
