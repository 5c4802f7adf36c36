import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '@hub/contracts';

/** The console's session cookie (decision 0800): HttpOnly, SameSite=Strict, Path=/, Secure over https. */
export const SESSION_COOKIE = 'hub_session';
/** Every request that changes something and is authenticated by the cookie carries this header. */
export const CSRF_HEADER = 'x-csrf-token';

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export class CsrfTokenRequiredError extends ForbiddenError {
  constructor() {
    super(
      'A request that changes something with the console session cookie needs the X-CSRF-Token header of that session',
      'CSRF_TOKEN_REQUIRED',
    );
  }
}

export class SessionEndedError extends UnauthorizedError {
  constructor() {
    super('The console session has ended or is unknown; sign in again', 'SESSION_ENDED');
  }
}

/** 256 random bits, base64url: the cookie's value. Only its SHA-256 is stored. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function sessionHash(sessionId: string): string {
  return hash('sha256', `hub-session:${sessionId}`, 'hex');
}

/**
 * The session's CSRF token: derived from the secret session id, so only a page that can read the
 * session's own answer (same origin) learns it, and a cross-site form cannot guess it.
 */
export function csrfTokenFor(sessionId: string): string {
  return hash('sha256', `hub-csrf:${sessionId}`, 'base64url');
}

/** The admin token's fingerprint stored with operator sessions: a new admin token ends them all. */
export function adminFingerprint(adminToken: string): string {
  return hash('sha256', `hub-console-admin:${adminToken}`, 'hex');
}

/** The session id in the Cookie header, when there is one of the right shape. */
export function sessionIdOf(req: FastifyRequest): string | null {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return SESSION_ID.test(value) ? value : null;
  }
  return null;
}

/** A mutating request authenticated by the cookie must carry the session's CSRF token. */
export function checkCsrf(req: FastifyRequest, sessionId: string): void {
  if (SAFE_METHODS.has(req.method)) return;
  const given = req.headers[CSRF_HEADER];
  const expected = Buffer.from(csrfTokenFor(sessionId));
  if (typeof given !== 'string' || given.length !== expected.length) throw new CsrfTokenRequiredError();
  if (!timingSafeEqual(Buffer.from(given), expected)) throw new CsrfTokenRequiredError();
}

function secure(req: FastifyRequest, publicUrl: string): boolean {
  return req.protocol === 'https' || publicUrl.startsWith('https:');
}

export function setSessionCookie(
  req: FastifyRequest,
  reply: FastifyReply,
  sessionId: string,
  maxAgeSeconds: number,
  publicUrl: string,
): void {
  const attrs = [`${SESSION_COOKIE}=${sessionId}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (secure(req, publicUrl)) attrs.push('Secure');
  void reply.header('Set-Cookie', attrs.join('; '));
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply, publicUrl: string): void {
  const attrs = [`${SESSION_COOKIE}=`, 'Path=/', 'HttpOnly', 'SameSite=Strict', 'Max-Age=0'];
  if (secure(req, publicUrl)) attrs.push('Secure');
  void reply.header('Set-Cookie', attrs.join('; '));
}
