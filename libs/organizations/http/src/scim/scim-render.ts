import { type FastifyRequest } from 'fastify';
import { SCIM_SCHEMAS, type ScimGroupRecord, type ScimPage, type ScimUserRecord } from '@hub/organizations-contract';
import { type ScimQuery } from './scim-query';

/** The base of this organization's SCIM endpoints, absolute (meta.location, member $ref). */
export function scimBase(req: FastifyRequest, organization: string): string {
  return `${req.protocol}://${req.host}/api/organizations/${encodeURIComponent(organization)}/scim/v2`;
}

const version = (n: number): string => `W/"${n}"`;

/** A User as RFC 7643 4.1 spells it, with spec 5.7's attributes only. */
export function renderUser(u: ScimUserRecord, base: string): Record<string, unknown> {
  const name = {
    ...(u.givenName !== null ? { givenName: u.givenName } : {}),
    ...(u.familyName !== null ? { familyName: u.familyName } : {}),
  };
  return {
    schemas: [SCIM_SCHEMAS.User],
    id: u.id,
    ...(u.externalId !== null ? { externalId: u.externalId } : {}),
    userName: u.userName,
    ...(Object.keys(name).length > 0 ? { name } : {}),
    emails: u.emails.map((value, i) => ({ value, primary: i === 0 })),
    active: u.active,
    meta: {
      resourceType: 'User',
      created: u.created,
      lastModified: u.lastModified,
      location: `${base}/Users/${u.id}`,
      version: version(u.version),
    },
  };
}

export function renderGroup(g: ScimGroupRecord, base: string): Record<string, unknown> {
  return {
    schemas: [SCIM_SCHEMAS.Group],
    id: g.id,
    ...(g.externalId !== null ? { externalId: g.externalId } : {}),
    displayName: g.displayName,
    members: g.members.map((m) => ({ value: m.value, display: m.display, $ref: `${base}/Users/${m.value}` })),
    meta: {
      resourceType: 'Group',
      created: g.created,
      lastModified: g.lastModified,
      location: `${base}/Groups/${g.id}`,
      version: version(g.version),
    },
  };
}

const ALWAYS = new Set(['schemas', 'id']);
const URN = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/i;

function names(list: string | undefined): Set<string> | null {
  if (!list || list.trim() === '') return null;
  return new Set(
    list
      .split(',')
      .map((a) => a.trim().replace(URN, '').split('.')[0]?.toLowerCase() ?? '')
      .filter(Boolean),
  );
}

/**
 * RFC 7644 3.9: `attributes` keeps only the named attributes (and schemas, id); otherwise
 * `excludedAttributes` leaves the named ones out (Entra asks groups with excludedAttributes=members).
 */
export function project(
  resource: Record<string, unknown>,
  attributes?: string,
  excluded?: string,
): Record<string, unknown> {
  const keep = names(attributes);
  const drop = names(excluded);
  return Object.fromEntries(
    Object.entries(resource).filter(([k]) => {
      if (ALWAYS.has(k)) return true;
      if (keep) return keep.has(k.toLowerCase());
      return !drop?.has(k.toLowerCase());
    }),
  );
}

/** RFC 7644 3.4.2: a ListResponse of one page, each resource rendered and projected. */
export function listResponse<T>(
  page: ScimPage<T>,
  render: (item: T) => Record<string, unknown>,
  q: ScimQuery,
): Record<string, unknown> {
  return {
    schemas: [SCIM_SCHEMAS.ListResponse],
    totalResults: page.totalResults,
    startIndex: page.startIndex,
    itemsPerPage: page.items.length,
    Resources: page.items.map((item) => project(render(item), q.attributes, q.excludedAttributes)),
  };
}
