import { type FastifyRequest } from 'fastify';
import {
  checkCsrf,
  CsrfTokenRequiredError,
  csrfTokenFor,
  newSessionId,
  sessionHash,
  sessionIdOf,
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
});
