import { http, type HttpAnswer } from '../http-client';
import { type HubTarget } from '../hub-factory';

export const SCIM_JSON = 'application/scim+json';
export const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

export interface ScimUser {
  schemas: string[];
  id: string;
  externalId?: string;
  userName: string;
  name?: { givenName?: string; familyName?: string };
  emails?: { value: string; primary: boolean }[];
  active: boolean;
  meta: { resourceType: string; created: string; lastModified: string; location: string; version: string };
}

export interface ScimGroup {
  schemas: string[];
  id: string;
  displayName: string;
  externalId?: string;
  members?: { value: string; display: string; $ref: string }[];
  meta: { resourceType: string; location: string; version: string };
}

export interface ScimList<T> {
  schemas: string[];
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
  Resources: T[];
}

export interface ScimErrorAnswer {
  schemas: string[];
  status: string;
  scimType?: string;
  detail: string;
}

/**
 * The hub name of the account a SCIM create makes (decision 0421) for a plain userName (the
 * tests' unique names): the part before "@", in lower case, "_" and the organization's name.
 */
export function managedName(userName: string, org: string): string {
  return `${userName.split('@')[0]?.toLowerCase() ?? ''}_${org}`;
}

/** A SCIM call as identity providers make it: application/scim+json both ways. */
export function scim<T = Record<string, unknown>>(
  t: HubTarget,
  token: string,
  method: string,
  org: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer<T>> {
  return http<T>(t.baseUrl, method, `/api/organizations/${org}/scim/v2${path}`, {
    token,
    ...(body === undefined ? {} : { rawBody: JSON.stringify(body) }),
    headers: { accept: SCIM_JSON, ...(body === undefined ? {} : { 'content-type': SCIM_JSON }), ...headers },
  });
}

/** A PatchOp message. */
export function patchOp(...ops: { op: string; path?: string; value?: unknown }[]): Record<string, unknown> {
  return { schemas: [PATCH_OP], Operations: ops };
}

/** Asserts the RFC 7644 3.12 error shape with the status as a string, and the headers every error carries. */
export function expectScimError(res: HttpAnswer<unknown>, status: number, scimType?: string): void {
  expect({ status: res.status, contentType: res.headers.get('content-type') }).toEqual({
    status,
    contentType: expect.stringMatching(/^application\/scim\+json/),
  });
  const body = res.body as ScimErrorAnswer;
  expect(body).toEqual({
    schemas: [SCIM_ERROR],
    status: String(status),
    detail: expect.any(String),
    ...(scimType ? { scimType } : {}),
  });
  expect(res.headers.get('x-error-message')).toBeTruthy();
  expect(res.headers.get('x-request-id')).toBeTruthy();
}
