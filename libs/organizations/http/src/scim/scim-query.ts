import { type FastifyReply, type FastifyRequest } from 'fastify';
import { SCIM_MAX_RESULTS, scimEtagMatches, ScimInvalidValueError } from '@hub/organizations-contract';

export interface ScimQuery {
  filter?: string;
  startIndex: number;
  count: number;
  attributes?: string;
  excludedAttributes?: string;
  sortBy?: string;
  sortOrder?: 'ascending' | 'descending';
}

function text(q: Record<string, unknown>, key: string): string | undefined {
  const v = q[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length > 1000)
    throw new ScimInvalidValueError(`${key} must be given once, at most 1000 characters`);
  return v;
}

function integer(q: Record<string, unknown>, key: string, fallback: number): number {
  const v = text(q, key);
  if (v === undefined || v === '') return fallback;
  if (!/^-?\d{1,15}$/.test(v)) throw new ScimInvalidValueError(`${key} must be an integer`);
  return Number(v);
}

/** RFC 7644 3.4.2.3: ascending unless said otherwise (case-insensitive, as identity providers vary). */
function sortOrder(v: string | undefined): 'ascending' | 'descending' | undefined {
  if (v === undefined || v === '') return undefined;
  const order = v.toLowerCase();
  if (order !== 'ascending' && order !== 'descending')
    throw new ScimInvalidValueError('sortOrder must be ascending or descending');
  return order;
}

/**
 * The query of a SCIM read (RFC 7644 3.4.2): a startIndex below 1 counts as 1, a negative count as
 * 0, and a count above the maximum is cut to it, as the RFC says.
 */
export function scimQuery(q: Record<string, unknown>): ScimQuery {
  return {
    filter: text(q, 'filter'),
    startIndex: Math.max(1, integer(q, 'startIndex', 1)),
    count: Math.min(SCIM_MAX_RESULTS, Math.max(0, integer(q, 'count', 100))),
    attributes: text(q, 'attributes'),
    excludedAttributes: text(q, 'excludedAttributes'),
    sortBy: text(q, 'sortBy'),
    sortOrder: sortOrder(text(q, 'sortOrder')),
  };
}

/** A SCIM body must be a JSON object (an empty or other body is invalidSyntax-like: named here). */
export function scimBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ScimInvalidValueError('Request body must be a JSON object (a SCIM resource or PatchOp message)');
  return body as Record<string, unknown>;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  const text = Array.isArray(v) ? v.join(', ') : v;
  if (text !== undefined && text.length > 1000)
    throw new ScimInvalidValueError(`${name} must be at most 1000 characters`);
  return text;
}

/** The If-Match of a change (RFC 7644 3.14), passed to the service that checks it on the locked resource. */
export function ifMatch(req: FastifyRequest): string | undefined {
  return header(req, 'if-match');
}

/** RFC 7644 3.14: a GET whose If-None-Match names the current version answers 304 without a body. */
export function notModified(req: FastifyRequest, reply: FastifyReply, version: number): boolean {
  const tags = header(req, 'if-none-match');
  if (tags === undefined || !scimEtagMatches(tags, version)) return false;
  void reply.status(304).header('etag', `W/"${version}"`);
  return true;
}

/** The paging, filter and order of a list RPC, from the query. */
export function listArgs(
  organization: string,
  q: ScimQuery,
): Pick<ScimQuery, 'filter' | 'startIndex' | 'count' | 'sortBy' | 'sortOrder'> & { organization: string } {
  return {
    organization,
    filter: q.filter,
    startIndex: q.startIndex,
    count: q.count,
    sortBy: q.sortBy,
    sortOrder: q.sortOrder,
  };
}
