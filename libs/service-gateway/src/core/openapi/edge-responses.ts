/*
 * Error answers the shared edge gives, derived from what each operation is: every guard, pipe
 * and filter in core/ can answer them whatever the controller says. Declared once here so the
 * document lists every status a client can meet (the end-to-end suites fail on any other).
 */

interface Response {
  description: string;
  content?: Record<string, { schema: unknown }>;
}

interface Operation {
  security?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, Response>;
}

interface Doc {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Record<string, unknown>> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const SAFE = new Set<string>(['get']);

const EDGE: Record<string, string> = {
  '400':
    'Bad input: the message names the field (a NUL or an unpaired surrogate in any string too), or the body is not UTF-8 JSON or not a JSON object',
  '401': 'No bearer token, or an unknown or revoked one',
  '403': 'The token cannot do this (a read token changes nothing; the admin API needs the admin token)',
  '408': 'The request body did not arrive in time (HUB_BODY_TIMEOUT_MS)',
  '413': 'Request body is too large',
  '414': 'A path segment is too long',
  '415': 'Content-Type must be application/json, in UTF-8 (no other charset)',
  '429': 'Too many requests, or too many failed authentications from this address (see Retry-After)',
  '431': 'Request headers are too large',
  '500': 'Internal error; its id is in the answer and the log',
  '503': 'A service this operation needs is not available',
  '504': 'A service this operation needs did not answer in time',
};

function statusesFor(path: string, method: string, op: Operation): string[] {
  // 400: every query string (and body and path) is checked for NUL and unpaired surrogates at the edge (text-guard.ts).
  const out = ['400', '429', '431', '500', '503', '504'];
  const isPublic = Array.isArray(op.security) && op.security.length === 0;
  if (!isPublic) out.push('401');
  if (!isPublic && !SAFE.has(method)) out.push('403');
  if (op.requestBody) out.push('400', '408', '413', '415');
  // From the template, not `parameters`: a controller-level `:name` read by a guard is not listed there.
  if (path.includes('{')) out.push('400', '414');
  return out;
}

/** Adds the edge's error answers (with the ErrorBody schema) where an operation does not declare them itself. */
export function withEdgeResponses<T>(document: T, errorSchemaRef = '#/components/schemas/ErrorBody'): T {
  const doc = document as unknown as Doc;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (!op) continue;
      op.responses ??= {};
      // SCIM operations answer every error as application/scim+json in RFC 7644's shape (decision 0420).
      const errorContent: Record<string, { schema: unknown }> = path.includes('/scim/v2')
        ? { 'application/scim+json': { schema: { $ref: '#/components/schemas/ScimErrorBody' } } }
        : { 'application/json': { schema: { $ref: errorSchemaRef } } };
      for (const status of statusesFor(path, method, op)) {
        op.responses[status] ??= { description: EDGE[status] ?? 'Error', content: errorContent };
      }
      // An error declared with a description only still answers the one error body.
      for (const [status, r] of Object.entries(op.responses)) if (Number(status) >= 400) r.content ??= errorContent;
    }
  }
  return document;
}

/** `additionalProperties: false` on the schemas of closed view classes (contracts' @ClosedSchema). */
export function closeSchemas<T>(document: T, names: ReadonlySet<string>): T {
  const schemas = (document as unknown as Doc).components?.schemas ?? {};
  for (const [name, schema] of Object.entries(schemas)) {
    if (names.has(name)) schema['additionalProperties'] = false;
  }
  return document;
}
