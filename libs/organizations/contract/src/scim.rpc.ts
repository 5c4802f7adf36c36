import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsObject, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { NAME_PATTERN, OBJECT_ID_PATTERN, rpc } from '@hub/contracts';
import { SCIM_MAX_RESULTS } from './scim.constants';

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
