/** SCIM 2.0 (RFC 7643, 7644) names the hub answers with. */
export const SCIM_CONTENT_TYPE = 'application/scim+json';
export const SCIM_SCHEMAS = {
  User: 'urn:ietf:params:scim:schemas:core:2.0:User',
  Group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  ListResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  PatchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  Error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  ServiceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  ResourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  Schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** Page size bound of SCIM list answers (ServiceProviderConfig filter.maxResults). */
export const SCIM_MAX_RESULTS = 200;

/**
 * The RFC 7644 3.12 `scimType` of an error, by the error's stable code. Errors without one here
 * carry no scimType (401, 403, 404, most 5xx).
 */
export const SCIM_TYPES_BY_CODE: Readonly<Record<string, string>> = {
  SCIM_INVALID_FILTER: 'invalidFilter',
  SCIM_INVALID_VALUE: 'invalidValue',
  SCIM_INVALID_PATH: 'invalidPath',
  SCIM_NO_TARGET: 'noTarget',
  SCIM_MUTABILITY: 'mutability',
  SCIM_INVALID_SYNTAX: 'invalidSyntax',
  SCIM_UNIQUENESS: 'uniqueness',
  SCIM_TOO_MANY: 'tooMany',
  NAME_TAKEN: 'uniqueness',
  EMAIL_TAKEN: 'uniqueness',
};

/**
 * Whether an If-Match / If-None-Match header names this version (RFC 7232 weak comparison, as
 * RFC 7644 3.14 uses: `W/"3"` and `"3"` are the same; `*` names any).
 */
export function scimEtagMatches(header: string, version: number): boolean {
  return header
    .split(',')
    .map((t) => t.trim())
    .some((t) => t === '*' || t.replace(/^W\//, '') === `"${version}"`);
}
