import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsObject, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { NAME_PATTERN, OBJECT_ID_PATTERN, rpc, ClosedSchema } from '@hub/contracts';

/*
 * SCIM 2.0 (decision 0420): the constants of RFC 7643/7644 we answer with, the RPC requests and
 * records, the views the OpenAPI document gives, and `ScimRpc`. The errors are `scim.errors.ts`.
 */

// The constants

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

// The requests, the records and the descriptors

/** The organization a SCIM call acts on (the gateway checked owner, token and plan). */
export class ScimOrgRpc {
  @Matches(NAME_PATTERN)
  organization!: string;
}

export class ScimListRpc extends ScimOrgRpc {
  /** The raw `filter` query (RFC 7644 3.4.2.2); the service parses the subset it supports. */
  @IsOptional()
  @IsString()
  @Length(0, 1000)
  filter?: string;

  @IsInt()
  @Min(1)
  startIndex!: number;

  @IsInt()
  @Min(0)
  @Max(SCIM_MAX_RESULTS)
  count!: number;

  /** RFC 7644 3.4.2.3: a single-valued filterable attribute; the service checks it. */
  @IsOptional()
  @IsString()
  @Length(0, 200)
  sortBy?: string;

  @IsOptional()
  @IsIn(['ascending', 'descending'])
  sortOrder?: 'ascending' | 'descending';
}

export class ScimResourceRpc extends ScimOrgRpc {
  @Matches(OBJECT_ID_PATTERN)
  id!: string;

  /** The request's If-Match (RFC 7644 3.14): a change applies only to that version (else 412, nothing applied). */
  @IsOptional()
  @IsString()
  @Length(0, 1000)
  ifMatch?: string;
}

/** A create or replace: the SCIM resource as the identity provider sent it (read leniently by the service). */
export class ScimWriteRpc extends ScimOrgRpc {
  @IsOptional()
  @Matches(OBJECT_ID_PATTERN)
  id?: string;

  @IsObject()
  resource!: Record<string, unknown>;

  /** As in ScimResourceRpc: the If-Match of a PUT. */
  @IsOptional()
  @IsString()
  @Length(0, 1000)
  ifMatch?: string;
}

/** A PATCH: the PatchOp message as sent (Operations with op, path, value). */
export class ScimPatchRpc extends ScimResourceRpc {
  @IsObject()
  patch!: Record<string, unknown>;
}

/** One provisioned user, as the gateway renders it (meta.location added there). */
export interface ScimUserRecord {
  id: string;
  /** The hub user it provisions (not rendered: the gateway drops its cached memberships). */
  userId: string;
  /** The hub name of that user (decision 0421: derived from the first userName, kept when userName changes). */
  hubName: string;
  userName: string;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  emails: string[];
  active: boolean;
  created: string;
  lastModified: string;
  version: number;
}

export interface ScimGroupRecord {
  id: string;
  displayName: string;
  externalId: string | null;
  members: { value: string; display: string }[];
  created: string;
  lastModified: string;
  version: number;
}

export interface ScimPage<T> {
  totalResults: number;
  startIndex: number;
  items: T[];
}

/** What a SCIM delete touched: the hub users whose memberships changed. */
export interface ScimDeleted {
  userIds: string[];
}

/**
 * POST /admin/organizations/{name}/scim/users (decision 0421): the operator links an existing hub
 * user to the organization's directory under the identity provider's userName. SCIM itself never does.
 */
export class AdminScimLinkDto {
  @ApiProperty({ description: 'The hub user to link' })
  @IsString()
  @Matches(NAME_PATTERN, { message: 'user must be a user name' })
  user!: string;

  @ApiProperty({ description: "The identity provider's userName for that user (1..256 characters)" })
  @IsString()
  @Length(1, 256)
  userName!: string;

  @ApiPropertyOptional({ description: "The identity provider's id of the user" })
  @IsOptional()
  @IsString()
  @Length(1, 512)
  externalId?: string;
}

export class ScimLinkRpc extends ScimOrgRpc {
  @Matches(OBJECT_ID_PATTERN)
  userId!: string;

  @Matches(NAME_PATTERN)
  hubName!: string;

  @IsString()
  @Length(1, 256)
  userName!: string;

  @IsOptional()
  @IsString()
  @Length(1, 512)
  externalId?: string;
}

/** SCIM 2.0 provisioning of an Enterprise Plus organization (decision 0420); the gateway renders the resources. */
export const ScimRpc = {
  ListUsers: rpc<ScimListRpc, ScimPage<ScimUserRecord>>('organizations.scim.user.list', ScimListRpc),
  GetUser: rpc<ScimResourceRpc, ScimUserRecord>('organizations.scim.user.get', ScimResourceRpc),
  CreateUser: rpc<ScimWriteRpc, ScimUserRecord>('organizations.scim.user.create', ScimWriteRpc),
  ReplaceUser: rpc<ScimWriteRpc, ScimUserRecord>('organizations.scim.user.replace', ScimWriteRpc),
  PatchUser: rpc<ScimPatchRpc, ScimUserRecord>('organizations.scim.user.patch', ScimPatchRpc),
  DeleteUser: rpc<ScimResourceRpc, ScimDeleted>('organizations.scim.user.delete', ScimResourceRpc),
  ListGroups: rpc<ScimListRpc, ScimPage<ScimGroupRecord>>('organizations.scim.group.list', ScimListRpc),
  GetGroup: rpc<ScimResourceRpc, ScimGroupRecord>('organizations.scim.group.get', ScimResourceRpc),
  CreateGroup: rpc<ScimWriteRpc, ScimGroupRecord>('organizations.scim.group.create', ScimWriteRpc),
  ReplaceGroup: rpc<ScimWriteRpc, ScimGroupRecord>('organizations.scim.group.replace', ScimWriteRpc),
  PatchGroup: rpc<ScimPatchRpc, ScimGroupRecord>('organizations.scim.group.patch', ScimPatchRpc),
  DeleteGroup: rpc<ScimResourceRpc, ScimDeleted>('organizations.scim.group.delete', ScimResourceRpc),
  LinkUser: rpc<ScimLinkRpc, ScimUserRecord>('organizations.scim.user.link', ScimLinkRpc),
} as const;

// The views

/** RFC 7644 3.12: every SCIM failure, with the same text in X-Error-Message. */
@ClosedSchema()
export class ScimErrorBody {
  @ApiProperty({ type: [String], example: ['urn:ietf:params:scim:api:messages:2.0:Error'] })
  schemas!: string[];

  @ApiProperty({ description: 'the HTTP status, as a string', example: '409' })
  status!: string;

  @ApiPropertyOptional({
    enum: [
      'invalidFilter',
      'tooMany',
      'uniqueness',
      'mutability',
      'invalidSyntax',
      'invalidPath',
      'noTarget',
      'invalidValue',
      'invalidVers',
      'sensitive',
    ],
  })
  scimType?: string;

  @ApiProperty({ description: 'what went wrong, naming the attribute or cause' })
  detail!: string;
}

class ScimMeta {
  @ApiProperty({ enum: ['User', 'Group'] }) resourceType!: string;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ format: 'date-time' }) lastModified!: string;
  @ApiProperty({ format: 'uri' }) location!: string;
  @ApiProperty({ example: 'W/"3"' }) version!: string;
}

class ScimName {
  @ApiPropertyOptional() givenName?: string;
  @ApiPropertyOptional() familyName?: string;
}

class ScimEmail {
  @ApiProperty({ format: 'email' }) value!: string;
  @ApiProperty() primary!: boolean;
}

/** A SCIM User (spec 5.7's attributes); `attributes`/`excludedAttributes` may leave any but schemas and id out. */
export class ScimUserView {
  @ApiProperty({ type: [String] }) schemas!: string[];
  @ApiProperty({ pattern: '^[0-9a-f]{24}$' }) id!: string;
  @ApiPropertyOptional() externalId?: string;
  @ApiPropertyOptional() userName?: string;
  @ApiPropertyOptional({ type: ScimName }) name?: ScimName;
  @ApiPropertyOptional({ type: [ScimEmail] }) emails?: ScimEmail[];
  @ApiPropertyOptional() active?: boolean;
  @ApiPropertyOptional({ type: ScimMeta }) meta?: ScimMeta;
}

class ScimMember {
  @ApiProperty({ description: 'the SCIM id of the user' }) value!: string;
  @ApiProperty({ description: 'its userName' }) display!: string;
  @ApiProperty({ format: 'uri' }) $ref!: string;
}

/** A SCIM Group: a resource group of the organization. */
export class ScimGroupView {
  @ApiProperty({ type: [String] }) schemas!: string[];
  @ApiProperty({ pattern: '^[0-9a-f]{24}$', description: 'the resource group id' }) id!: string;
  @ApiPropertyOptional() externalId?: string;
  @ApiPropertyOptional() displayName?: string;
  @ApiPropertyOptional({ type: [ScimMember] }) members?: ScimMember[];
  @ApiPropertyOptional({ type: ScimMeta }) meta?: ScimMeta;
}

export class ScimListView {
  @ApiProperty({ type: [String] }) schemas!: string[];
  @ApiProperty() totalResults!: number;
  @ApiProperty() startIndex!: number;
  @ApiProperty() itemsPerPage!: number;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) Resources!: Record<string, unknown>[];
}
