import { type FastifyReply, type FastifyRequest } from 'fastify';

/** Swagger UI loads its scripts from /docs and inlines only styles. */
export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/**
 * On every response: no MIME sniffing, no framing, and no caching (answers carry tokens, user
 * data, or the one-time raw token of the admin API). A route may still set its own Cache-Control.
 */
export function setSecurityHeaders(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  void reply.header('X-Content-Type-Options', 'nosniff');
  void reply.header('X-Frame-Options', 'DENY');
  void reply.header('Cache-Control', 'no-store');
  void reply.header(
    'Content-Security-Policy',
    req.url === '/docs' || req.url.startsWith('/docs/') ? DOCS_CSP : "default-src 'none'; frame-ancestors 'none'",
  );
  done();
}
