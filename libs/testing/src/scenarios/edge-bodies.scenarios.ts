import { connect, type Socket } from 'node:net';
import { http } from '../http-client';
import { type HubTarget, makeOrg, makeUser } from '../hub-factory';

/** A hub or gateway started with a short HUB_BODY_TIMEOUT_MS (and the default HUB_BODY_LIMIT). */
export interface EdgeBodiesTarget extends HubTarget {
  /** HUB_BODY_TIMEOUT_MS */
  bodyTimeoutMs: number;
}

/** HUB_BODY_LIMIT's default, which the hubs under test keep. */
const BODY_LIMIT = 1024 * 1024;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface RawPost {
  path: string;
  token?: string;
  /** Content-Length to declare; chunked transfer encoding when absent. */
  declared?: number;
  parts: Buffer[];
  /** Pause before each part. */
  gapMs: number;
  /** Close the connection after the parts instead of finishing the body. */
  abandon: boolean;
}

/**
 * rawPost, sent again (at most four more times, a moment apart) when the connection was reset
 * before any answer came: a server that answers 413 and closes while a body it never read is still
 * arriving makes the client's kernel drop that answer on the peer's RST (TCP, not the hub; three
 * tries in a row lost it once in CI at load ~15). Abandoned bodies are not retried: nothing is
 * expected back from them.
 */
async function answeredPost(base: URL, p: RawPost): Promise<string> {
  let last = { text: '', reset: false };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (attempt > 0) await sleep(100 * attempt);
    last = await rawPost(base, p);
    if (last.text !== '' || !last.reset || p.abandon) break;
  }
  return last.text;
}

/** A POST written by hand on a raw socket; what the server answered (empty when nothing), and whether the peer reset it. */
async function rawPost(base: URL, p: RawPost): Promise<{ text: string; reset: boolean }> {
  const s = await new Promise<Socket>((resolve, reject) => {
    const socket = connect(Number(base.port), base.hostname, () => resolve(socket));
    socket.once('error', reject);
  });
  let text = '';
  s.on('data', (d: Buffer) => (text += d.toString('latin1')));
  let reset = false;
  s.on('error', (e: NodeJS.ErrnoException) => (reset ||= e.code === 'ECONNRESET' || e.code === 'EPIPE'));
  const closed = new Promise<void>((r) => s.once('close', () => r()));
  const framing = p.declared === undefined ? 'Transfer-Encoding: chunked' : `Content-Length: ${p.declared}`;
  const auth = p.token ? `Authorization: Bearer ${p.token}\r\n` : '';
  s.write(
    `POST ${p.path} HTTP/1.1\r\nHost: ${base.host}\r\nContent-Type: application/json\r\n${auth}${framing}\r\n\r\n`,
  );
  for (const part of p.parts) {
    if (p.gapMs > 0) await sleep(p.gapMs);
    if (s.destroyed) break;
    s.write(
      p.declared === undefined
        ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')])
        : part,
    );
  }
  if (!p.abandon) {
    if (p.declared === undefined && !s.destroyed) s.write('0\r\n\r\n');
    // Event-driven, never a poll: a poll for an answer that never comes (the connection closed
    // first) outlives the test and keeps jest from exiting.
    const answered = new Promise<void>((r) => {
      const check = (): void => void (/\r\n\r\n/.test(text) && r());
      s.on('data', check);
      check();
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((r) => (timer = setTimeout(r, 15_000)));
    await Promise.race([closed, answered, late]);
    clearTimeout(timer);
  }
  s.destroy();
  return { text, reset };
}

const filler = (bytes: number): Buffer => Buffer.alloc(bytes, 'a');

/**
 * Issue 22 (security probe, second round): bodies the edge refuses must be refused in words, and
 * never cost the process. Run against both run modes.
 */
export function edgeBodiesScenarios(target: () => EdgeBodiesTarget): void {
  describe('bodies at the edge (issue 22)', () => {
    it('answers oversized bodies (whole, abandoned, trickled; public and authenticated) and still answers well past every body timer', async () => {
      const t = target();
      const base = new URL(t.baseUrl);
      const user = await makeUser(t);
      const over = BODY_LIMIT + 4096;
      const routes = [{ path: '/api/credentials/revoke' }, { path: '/api/settings/webhooks', token: user.token }];
      const chunk = filler(64 * 1024);
      const chunksOver = Math.ceil(over / chunk.length);
      // Each shape the probe used: the 413 is answered before the body is read (declared length)
      // or while reading it (chunked), and the client then finishes, leaves, or dribbles on.
      const shapes: Array<{ name: string; plan: Omit<RawPost, 'path' | 'token'>; answer: RegExp }> = [
        {
          name: 'whole, declared',
          plan: { declared: over, parts: [filler(over)], gapMs: 0, abandon: false },
          answer: /^HTTP\/1\.1 413/,
        },
        {
          name: 'whole, chunked',
          plan: { parts: Array(chunksOver).fill(chunk), gapMs: 0, abandon: false },
          // Read until the limit is crossed: a 413, or a 408 when a loaded machine could not read
          // the first megabyte within the body timer (seen in CI at load 22; either way, an answer).
          answer: /^HTTP\/1\.1 (413|408)/,
        },
        {
          name: 'abandoned half-way, declared',
          plan: { declared: over, parts: [filler(over / 2)], gapMs: 0, abandon: true },
          answer: /^/,
        },
        {
          name: 'abandoned half-way, chunked',
          plan: { parts: Array(Math.floor(chunksOver / 2)).fill(chunk), gapMs: 0, abandon: true },
          answer: /^/,
        },
        {
          name: 'trickled, declared',
          plan: { declared: over, parts: Array(4).fill(filler(16)), gapMs: t.bodyTimeoutMs / 3, abandon: false },
          answer: /^HTTP\/1\.1 413/,
        },
        {
          name: 'trickled past the limit, chunked',
          plan: {
            parts: [...Array(chunksOver).fill(chunk), ...Array(4).fill(filler(16))],
            gapMs: t.bodyTimeoutMs / 40,
            abandon: false,
          },
          answer: /^HTTP\/1\.1 (413|408)/,
        },
      ];
      const sent: Array<Promise<{ shape: string; path: string; text: string }>> = [];
      // 20 requests, at most 4 at a time (a gateway under test may cap connections at 8).
      for (let i = 0; i < 20; i++) {
        const shape = shapes[i % shapes.length];
        const route = routes[Math.floor(i / shapes.length) % routes.length];
        sent.push(
          answeredPost(base, { ...shape.plan, ...route }).then((text) => ({
            shape: shape.name,
            path: route.path,
            text,
          })),
        );
        if (sent.length % 4 === 0) await Promise.all(sent.slice(-4));
      }
      const answers = await Promise.all(sent);
      for (const a of answers) {
        const shape = shapes.find((s) => s.name === a.shape);
        expect({ ...a, text: a.text.split('\r\n')[0] }).toEqual({
          ...a,
          text: expect.stringMatching(shape?.answer ?? /^/),
        });
      }
      expect(answers.filter((a) => a.shape === 'whole, declared')[0]?.text).toContain(
        '{"error":"Request body is too large"}',
      );
      // Every socket is closed. Every per-request timer (HUB_BODY_TIMEOUT_MS from the headers; Node's
      // requestTimeout, 5 s more, only for connections still open) is now behind us after
      // 3 x the body timeout + 2 s; the process must answer all along and after.
      const until = Date.now() + 3 * t.bodyTimeoutMs + 2000;
      while (Date.now() < until) {
        expect((await http(t.baseUrl, 'GET', '/health/live')).status).toBe(200);
        await sleep(200);
      }
      expect((await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: user.token })).status).toBe(200);
      expect(
        (await http(t.baseUrl, 'POST', '/api/credentials/revoke', { body: { credentials: ['hf_unknown'] } })).status,
      ).toBe(202);
    }, 120_000);

    it('refuses a NUL or an unpaired surrogate in any string of a body or query with a 400 naming the field', async () => {
      const t = target();
      const user = await makeUser(t);
      const org = await makeOrg(t, 'enterprise', [user.name]);
      const job = { flavor: 'cpu-basic', dockerImage: 'alpine:3', command: ['echo'] };
      const webhook = {
        watched: [{ type: 'model', name: `${user.name}/m` }],
        url: 'https://example.com/hook',
        domains: ['repo'],
      };
      const cases: Array<{ method: string; path: string; body?: unknown; error: string; token?: string }> = [
        {
          method: 'POST',
          path: `/api/jobs/${user.name}`,
          body: { ...job, command: ['echo', 'a\u0000b'] },
          error: 'command[1] must not contain a NUL character',
        },
        {
          method: 'POST',
          path: `/api/jobs/${user.name}`,
          body: { ...job, arguments: ['\u0000'] },
          error: 'arguments[0] must not contain a NUL character',
        },
        {
          method: 'POST',
          path: `/api/jobs/${user.name}`,
          body: { ...job, environment: { FOO: 'x\u0000' } },
          error: 'environment.FOO must not contain a NUL character',
        },
        {
          method: 'POST',
          path: `/api/jobs/${user.name}`,
          body: { flavor: 'cpu-basic', spaceId: 'a\ud800', command: ['echo'] },
          error: 'spaceId must not contain an unpaired UTF-16 surrogate (not valid Unicode)',
        },
        {
          method: 'POST',
          path: '/api/settings/webhooks',
          body: { ...webhook, url: 'https://example.com/\u0000' },
          error: 'url must not contain a NUL character',
        },
        {
          method: 'POST',
          path: '/api/settings/webhooks',
          body: { ...webhook, watched: [{ type: 'model', name: 'a\u0000' }] },
          error: 'watched[0].name must not contain a NUL character',
        },
        {
          method: 'GET',
          path: `/api/organizations/${org.name}/settings/repositories?search=%00`,
          error: 'search must not contain a NUL character',
        },
        {
          method: 'GET',
          path: `/api/organizations/${org.name}/audit-log/export?q=a%00`,
          error: 'q must not contain a NUL character',
        },
        {
          method: 'POST',
          path: `/admin/organizations/${org.name}/resource-groups`,
          body: { name: 'g\u0000' },
          error: 'name must not contain a NUL character',
          token: t.adminToken,
        },
        {
          method: 'POST',
          path: `/api/scheduled-jobs/${user.name}`,
          body: { schedule: '@hourly' },
          error: 'jobSpec is required',
        },
      ];
      const answers = [];
      for (const c of cases) {
        const res = await http(t.baseUrl, c.method, c.path, { token: c.token ?? user.token, body: c.body });
        answers.push({ path: c.path, status: res.status, body: res.body });
      }
      expect(answers).toEqual(cases.map((c) => ({ path: c.path, status: 400, body: { error: c.error } })));
    });

    it("answers an over-long SCIM path segment (414) in RFC 7644's error shape", async () => {
      const t = target();
      const res = await http(t.baseUrl, 'GET', `/api/organizations/acme/scim/v2/Users/${'a'.repeat(300)}`, {
        token: 'hf_whatever',
      });
      expect(res.status).toBe(414);
      expect(res.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      expect(res.body).toEqual({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: '414',
        detail: expect.stringMatching(/longer than/),
      });
      expect(res.headers.get('x-request-id')).toBeTruthy();
    });

    it('says what is wrong with a body that is not UTF-8 (400) or declares another charset (415); UTF-8 in any case passes', async () => {
      const t = target();
      const revoke = (body: string | Uint8Array, contentType: string): ReturnType<typeof http> =>
        http(t.baseUrl, 'POST', '/api/credentials/revoke', { rawBody: body, headers: { 'content-type': contentType } });
      const latin1 = Buffer.from('{"credentials":["hf_caf\xe9"]}', 'latin1');
      expect(await revoke(latin1, 'application/json')).toMatchObject({
        status: 400,
        body: { error: 'Request body is not valid UTF-8 JSON' },
      });
      const utf16 = Buffer.from('{"credentials":["hf_x"]}', 'utf16le');
      expect(await revoke(utf16, 'application/json; charset=utf-16')).toMatchObject({
        status: 415,
        body: { error: 'Request body charset "utf-16" is not supported: send JSON in UTF-8' },
      });
      expect(await revoke('{"credentials":["hf_x"]}', 'application/json; charset=ISO-8859-1')).toMatchObject({
        status: 415,
      });
      for (const contentType of [
        'application/json; charset=UTF-8',
        'application/json;charset="utf-8"',
        'application/json',
      ]) {
        expect(await revoke('{"credentials":["hf_caf\u00e9"]}', contentType)).toMatchObject({ status: 202 });
      }
    });
  });
}
