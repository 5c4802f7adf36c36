import { type FastifyReply, type FastifyRequest } from 'fastify';
import {
  checkCsrf,
  clearSessionCookie,
  CsrfTokenRequiredError,
  csrfTokenFor,
  newSessionId,
  sessionHash,
  sessionIdOf,
  setSessionCookie,
} from './console-session';

const req = (headers: Record<string, string>, method = 'GET'): FastifyRequest =>
  ({ headers, method }) as unknown as FastifyRequest;

describe('console session cookie and CSRF token', () => {
  const id = newSessionId();

  it('makes 256-bit ids, each new, and stores a hash that is not the id', () => {
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSessionId()).not.toBe(id);
    expect(sessionHash(id)).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionHash(id)).not.toContain(id);
  });

  it('reads the session cookie among others, and ignores one of the wrong shape', () => {
    expect(sessionIdOf(req({ cookie: `theme=dark; hub_session=${id}; other=1` }))).toBe(id);
    expect(sessionIdOf(req({ cookie: 'hub_session=short' }))).toBeNull();
    expect(sessionIdOf(req({ cookie: `hub_session=${id}x` }))).toBeNull();
    expect(sessionIdOf(req({ cookie: `xhub_session=${id}` }))).toBeNull();
    expect(sessionIdOf(req({}))).toBeNull();
  });

  it('asks the CSRF token of changes only, and only the one of this session', () => {
    expect(() => checkCsrf(req({}, 'GET'), id)).not.toThrow();
    expect(() => checkCsrf(req({}, 'POST'), id)).toThrow(CsrfTokenRequiredError);
    expect(() => checkCsrf(req({ 'x-csrf-token': csrfTokenFor(newSessionId()) }, 'DELETE'), id)).toThrow(
      CsrfTokenRequiredError,
    );
    expect(() => checkCsrf(req({ 'x-csrf-token': 'a' }, 'PATCH'), id)).toThrow(CsrfTokenRequiredError);
    expect(() => checkCsrf(req({ 'x-csrf-token': csrfTokenFor(id) }, 'POST'), id)).not.toThrow();
  });

  it('marks the cookie Secure over https (the request, or an https public URL), and clears it the same way', () => {
    const cookieOf = (protocol: string, publicUrl: string, clear = false): string => {
      let value = '';
      const reply = { header: (_: string, v: string) => ((value = v), reply) } as unknown as FastifyReply;
      const r = { protocol, headers: {} } as unknown as FastifyRequest;
      if (clear) clearSessionCookie(r, reply, publicUrl);
      else setSessionCookie(r, reply, id, 3600, publicUrl);
      return value;
    };
    expect(cookieOf('http', 'http://localhost:8080')).toBe(
      `hub_session=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=3600`,
    );
    expect(cookieOf('https', 'http://localhost:8080')).toMatch(/; Secure$/);
    expect(cookieOf('http', 'https://hub.example')).toMatch(/; Secure$/);
    expect(cookieOf('https', 'https://hub.example', true)).toBe(
      'hub_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure',
    );
  });
});
