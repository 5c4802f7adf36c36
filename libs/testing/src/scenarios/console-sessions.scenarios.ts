import { http } from '../http-client';
import { makeUser, type HubTarget } from '../hub-factory';
import { consoleSignIn, withCookie } from './console-helpers';

/** The console's cookie sessions over HTTP: what the cookie can do, and when it stops (decision 0800). */
export function consoleSessionScenarios(t: () => HubTarget): void {
  describe('console sessions', () => {
    it('sets an HttpOnly, SameSite=Strict cookie with a bounded lifetime', async () => {
      const alice = await makeUser(t());
      const s = await consoleSignIn(t().baseUrl, alice.token);
      expect(s.setCookie).toMatch(/^hub_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
      expect(s.body.kind).toBe('user');
      expect(s.body.user?.name).toBe(alice.name);
      expect(Date.parse(s.body.expiresAt) - Date.now()).toBeLessThanOrEqual(12 * 3600 * 1000);
      const me = await withCookie(t().baseUrl, 'GET', '/api/whoami-v2', s);
      expect(me).toMatchObject({ status: 200, body: { name: alice.name } });
    });

    it('refuses a change without the CSRF header, and a sign-in from another site', async () => {
      const alice = await makeUser(t());
      const s = await consoleSignIn(t().baseUrl, alice.token);
      const body = { discussionIds: [], read: true };
      const forged = await withCookie(
        t().baseUrl,
        'POST',
        '/api/notifications/mark-as-read?applyToAll=true',
        { cookie: s.cookie },
        body,
      );
      expect(forged.status).toBe(403);
      expect(forged.body).toEqual({ error: expect.stringContaining('X-CSRF-Token') });
      const wrong = await withCookie(
        t().baseUrl,
        'POST',
        '/api/notifications/mark-as-read?applyToAll=true',
        { cookie: s.cookie, csrf: 'x'.repeat(43) },
        body,
      );
      expect(wrong.status).toBe(403);
      const right = await withCookie(t().baseUrl, 'POST', '/api/notifications/mark-as-read?applyToAll=true', s, body);
      expect(right.status).toBe(200);
      const crossSite = await fetch(`${t().baseUrl}/api/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
        body: JSON.stringify({ token: alice.token }),
      });
      expect(crossSite.status).toBe(403);
      expect(crossSite.headers.get('set-cookie')).toBeNull();
    });

    it('does no more than its token: a read token changes nothing, a user session reaches no admin route', async () => {
      const reader = await makeUser(t(), 'read');
      const s = await consoleSignIn(t().baseUrl, reader.token);
      const change = await withCookie(t().baseUrl, 'POST', '/api/settings/webhooks', s, {
        watched: [],
        url: 'http://127.0.0.1:1/x',
      });
      expect(change.status).toBe(403);
      const admin = await withCookie(t().baseUrl, 'POST', '/admin/users', s, {
        name: 'nope',
        email: 'nope@example.com',
      });
      // Known, and not allowed: 403, as its token gets there.
      expect(admin.status).toBe(403);
      const op = await consoleSignIn(t().baseUrl, t().adminToken);
      expect(op.body.kind).toBe('operator');
      // An operator session reaches the admin API, and no user route.
      expect((await withCookie(t().baseUrl, 'GET', '/api/whoami-v2', op)).status).toBe(401);
      const user = await makeUser(t());
      const created = await withCookie(t().baseUrl, 'POST', `/admin/users/${user.name}/tokens`, op, { role: 'read' });
      expect(created.status).toBe(201);
      const unsafe = await withCookie(
        t().baseUrl,
        'POST',
        `/admin/users/${user.name}/tokens`,
        { cookie: op.cookie },
        { role: 'read' },
      );
      expect(unsafe.status).toBe(403);
    });

    it('ends on sign-out and when its token is revoked', async () => {
      const alice = await makeUser(t());
      const one = await consoleSignIn(t().baseUrl, alice.token);
      const two = await consoleSignIn(t().baseUrl, alice.token);
      expect((await withCookie(t().baseUrl, 'DELETE', '/api/console/session', { cookie: one.cookie })).status).toBe(
        403,
      );
      expect((await withCookie(t().baseUrl, 'DELETE', '/api/console/session', one)).status).toBe(204);
      expect((await withCookie(t().baseUrl, 'GET', '/api/notifications', one)).status).toBe(401);
      expect((await withCookie(t().baseUrl, 'GET', '/api/notifications', two)).status).toBe(200);
      const revoked = await http(t().baseUrl, 'POST', '/api/credentials/revoke', {
        body: { credentials: [alice.token] },
      });
      expect(revoked.status).toBeLessThan(300);
      expect((await withCookie(t().baseUrl, 'GET', '/api/notifications', two)).status).toBe(401);
      expect((await withCookie(t().baseUrl, 'GET', '/api/console/session', two)).status).toBe(401);
    });

    it('ends the session a browser had when it signs in again', async () => {
      const alice = await makeUser(t());
      const first = await consoleSignIn(t().baseUrl, alice.token);
      const res = await fetch(`${t().baseUrl}/api/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: first.cookie },
        body: JSON.stringify({ token: alice.token }),
      });
      expect(res.status).toBe(200);
      const second = { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] };
      expect(second.cookie).not.toBe(first.cookie);
      expect((await withCookie(t().baseUrl, 'GET', '/api/whoami-v2', first)).status).toBe(401);
      expect((await withCookie(t().baseUrl, 'GET', '/api/whoami-v2', second)).status).toBe(200);
    });

    it('answers a bad token with 401 and sets no cookie', async () => {
      const res = await fetch(`${t().baseUrl}/api/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: 'hf_not_a_token_of_this_hub' }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('set-cookie')).toBeNull();
    });
  });
}
