import { SCIM_MAX_RESULTS, SCIM_SCHEMAS } from '@hub/organizations-contract';

type Attr = Record<string, unknown>;

const attr = (name: string, type: string, more: Attr = {}): Attr => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...more,
});

/** What every description says of filters (RFC 7643 has no per-attribute flag for it). */
const FILTERABLE = 'filterable (eq ne co sw ew pr gt ge lt le) and sortable';

/**
 * RFC 7643 7: the User schema with the attributes the hub keeps (id, externalId and meta are
 * common attributes; externalId, id, meta.created and meta.lastModified are filterable too).
 */
const USER_SCHEMA = {
  id: SCIM_SCHEMAS.User,
  name: 'User',
  description:
    'A user the identity provider provisioned: a hub account managed by the organization (decision 0421). Attributes not listed here ' +
    '(displayName, nickName, title, userType, locale, timezone, phoneNumbers, addresses, photos, roles, groups, password, name.formatted, ' +
    'name.middleName, emails.type, emails.display, extension schemas) are accepted and not kept.',
  attributes: [
    attr('userName', 'string', {
      required: true,
      uniqueness: 'server',
      description:
        `The identity provider's identifier (e-mail, UPN or any text, 1..256 characters), unique in the organization without regard to case; ${FILTERABLE}. ` +
        'It may change; the hub account keeps the name it was given from the first userName',
    }),
    attr('name', 'complex', {
      description: "The user's name (formatted and middleName are not kept)",
      subAttributes: [
        attr('givenName', 'string', { description: `First name, at most 200 characters; ${FILTERABLE}` }),
        attr('familyName', 'string', { description: `Last name, at most 200 characters; ${FILTERABLE}` }),
      ],
    }),
    attr('emails', 'complex', {
      multiValued: true,
      description:
        'E-mail addresses, the primary one first (at most 20); types are not kept, so emails[type eq "…"] names the primary address; ' +
        "filterable, with value paths; not sortable. The primary one is the managed account's address (it need not be unique)",
      subAttributes: [
        attr('value', 'string', { description: `The address; ${FILTERABLE}` }),
        attr('primary', 'boolean', { description: 'true on the first address' }),
      ],
    }),
    attr('active', 'boolean', {
      description: 'false suspends the membership; true restores it; filterable with eq and ne; sortable',
    }),
  ],
  meta: { resourceType: 'Schema' },
};

const GROUP_SCHEMA = {
  id: SCIM_SCHEMAS.Group,
  name: 'Group',
  description:
    'A resource group of the organization whose users the identity provider manages. Attributes not listed here are accepted and not kept.',
  attributes: [
    attr('displayName', 'string', {
      required: true,
      description: `The resource group name (1..200 characters), case-insensitive; ${FILTERABLE}`,
    }),
    attr('members', 'complex', {
      multiValued: true,
      description: 'Provisioned users in the group; filterable (members eq "id", members[value eq "id"]), not sortable',
      subAttributes: [
        attr('value', 'string', {
          mutability: 'immutable',
          caseExact: true,
          description: 'The SCIM id of a provisioned user',
        }),
        attr('display', 'string', { mutability: 'readOnly', description: 'Its userName' }),
        attr('$ref', 'reference', { mutability: 'immutable', referenceTypes: ['User'] }),
      ],
    }),
  ],
  meta: { resourceType: 'Schema' },
};

export function schemas(base: string): Attr[] {
  return [USER_SCHEMA, GROUP_SCHEMA].map((s) => ({
    schemas: [SCIM_SCHEMAS.Schema],
    ...s,
    meta: { ...s.meta, location: `${base}/Schemas/${s.id}` },
  }));
}

export function resourceTypes(base: string): Attr[] {
  return [
    {
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'Provisioned users',
      schema: SCIM_SCHEMAS.User,
      schemaExtensions: [],
    },
    {
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'Resource groups managed by SCIM',
      schema: SCIM_SCHEMAS.Group,
      schemaExtensions: [],
    },
  ].map((t) => ({
    schemas: [SCIM_SCHEMAS.ResourceType],
    ...t,
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${t.id}` },
  }));
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
    sort: { supported: true },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        primary: true,
        description: 'A hub access token with write permission of an admin of the organization',
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

export function listOf(resources: Attr[]): Attr {
  return {
    schemas: [SCIM_SCHEMAS.ListResponse],
    totalResults: resources.length,
    startIndex: 1,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
