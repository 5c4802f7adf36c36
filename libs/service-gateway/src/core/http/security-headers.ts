import { type FastifyReply, type FastifyRequest } from 'fastify';

/** Swagger UI loads its scripts from /docs and inlines only styles. */
export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/** The web console's pages: scripts and styles from this origin only, nothing inline (decision 0801). */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; manifest-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Paths the console's page and files answer on. */
export function isConsolePath(url: string): boolean {
  return url === '/' || url.startsWith('/?') || url === '/index.html' || url.startsWith('/assets/');
}

function cspFor(url: string): string {
  if (url === '/docs' || url.startsWith('/docs/')) return DOCS_CSP;
  return isConsolePath(url) ? CONSOLE_CSP : "default-src 'none'; frame-ancestors 'none'";
}

/**
 * On every response: no MIME sniffing, no framing, and no caching (answers carry tokens, user
 * data, or the one-time raw token of the admin API). A route may still set its own Cache-Control.
 */
export function setSecurityHeaders(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  void reply.header('X-Content-Type-Options', 'nosniff');
  void reply.header('X-Frame-Options', 'DENY');
  void reply.header('Cache-Control', 'no-store');
  void reply.header('Content-Security-Policy', cspFor(req.url));
  // The console's pages send no Referer with their own URLs (filters, ids) to anywhere else.
  void reply.header('Referrer-Policy', 'same-origin');
  done();
}
