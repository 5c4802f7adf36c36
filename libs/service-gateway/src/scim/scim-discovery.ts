import { SCIM_MAX_RESULTS, SCIM_SCHEMAS } from '@hub/contracts';

type Attr = Record<string, unknown>;

const attr = (name: string, type: string, more: Attr = {}): Attr => ({
  name, type, multiValued: false, required: false, caseExact: false, mutability: 'readWrite', returned: 'default', uniqueness: 'none', ...more,
});

/** RFC 7643 7: the User schema with spec 5.7's attributes only (id, externalId and meta are common attributes). */
const USER_SCHEMA = {
  id: SCIM_SCHEMAS.User, name: 'User', description: 'A hub user provisioned in the organization',
  attributes: [
    attr('userName', 'string', { required: true, uniqueness: 'server', description: 'The hub user name (case-insensitive)' }),
    attr('name', 'complex', {
      description: 'The user\'s name', subAttributes: [attr('givenName', 'string', { description: 'First name' }), attr('familyName', 'string', { description: 'Last name' })],
    }),
    attr('emails', 'complex', {
      multiValued: true, description: 'E-mail addresses (types are not kept; the primary one creates a new hub user)',
      subAttributes: [attr('value', 'string'), attr('primary', 'boolean')],
    }),
    attr('active', 'boolean', { description: 'false suspends the membership; true restores it' }),
  ],
  meta: { resourceType: 'Schema' },
};

const GROUP_SCHEMA = {
  id: SCIM_SCHEMAS.Group, name: 'Group', description: 'A resource group of the organization whose users the identity provider manages',
  attributes: [
    attr('displayName', 'string', { required: true, description: 'The resource group name (1..200 characters)' }),
    attr('members', 'complex', {
      multiValued: true, description: 'Provisioned users in the group',
      subAttributes: [attr('value', 'string', { mutability: 'immutable' }), attr('display', 'string', { mutability: 'readOnly' }), attr('$ref', 'reference', { mutability: 'immutable', referenceTypes: ['User'] })],
    }),
  ],
  meta: { resourceType: 'Schema' },
};

export function schemas(base: string): Attr[] {
  return [USER_SCHEMA, GROUP_SCHEMA].map((s) => ({ schemas: [SCIM_SCHEMAS.Schema], ...s, meta: { ...s.meta, location: `${base}/Schemas/${s.id}` } }));
}

export function resourceTypes(base: string): Attr[] {
  return [
    { id: 'User', name: 'User', endpoint: '/Users', description: 'Provisioned users', schema: SCIM_SCHEMAS.User },
    { id: 'Group', name: 'Group', endpoint: '/Groups', description: 'Resource groups managed by SCIM', schema: SCIM_SCHEMAS.Group },
  ].map((t) => ({ schemas: [SCIM_SCHEMAS.ResourceType], ...t, meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${t.id}` } }));
}

/** RFC 7643 5: what this server supports. */
export function serviceProviderConfig(base: string): Attr {
  return {
    schemas: [SCIM_SCHEMAS.ServiceProviderConfig],
    documentationUri: `${base.replace(/\/api\/organizations\/.*$/, '')}/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [{
      type: 'oauthbearertoken', name: 'Bearer token', primary: true,
      description: 'A hub access token with write permission of an admin of the organization',
    }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

export function listOf(resources: Attr[]): Attr {
  return { schemas: [SCIM_SCHEMAS.ListResponse], totalResults: resources.length, startIndex: 1, itemsPerPage: resources.length, Resources: resources };
}
