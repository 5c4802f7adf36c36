import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  REPO_TYPES,
  RESOURCE_GROUP_AUTO_JOIN_SCOPES,
  type RepoType,
  NAME_PATTERN,
  OBJECT_ID_PATTERN,
  REPO_ID_PATTERN,
  ROLE_PATTERN,
  rpc,
} from '@hub/contracts';

const ROLE_RULE = 'role must be a role name (1..50 letters, digits, space, "_" or "-")';

export class AutoJoinDto {
  @ApiProperty()
  @IsBoolean({ message: 'autoJoin.enabled must be a boolean' })
  enabled!: boolean;

  @ApiPropertyOptional({ description: 'role given to members who join (required when enabled)' })
  @ValidateIf((o: AutoJoinDto) => o.enabled)
  @Matches(ROLE_PATTERN, { message: `autoJoin.${ROLE_RULE}` })
  @IsString({ message: 'autoJoin.role must be a string' })
  role?: string;

  @ApiPropertyOptional({ enum: RESOURCE_GROUP_AUTO_JOIN_SCOPES })
  @IsOptional()
  @IsIn(RESOURCE_GROUP_AUTO_JOIN_SCOPES, { message: 'autoJoin.scope must be all or read_plus' })
  scope?: (typeof RESOURCE_GROUP_AUTO_JOIN_SCOPES)[number];
}

export class AdminCreateResourceGroupDto {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @Length(1, 200, { message: 'name must be 1..200 characters long' })
  @IsString({ message: 'name must be a string' })
  name!: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @Length(0, 500, { message: 'description must be at most 500 characters long' })
  @IsString({ message: 'description must be a string' })
  description?: string;

  @ApiPropertyOptional({ type: AutoJoinDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => AutoJoinDto)
  autoJoin?: AutoJoinDto;
}

export class ResourceGroupUserDto {
  @ApiProperty()
  @Matches(NAME_PATTERN, { message: 'user must be a user name' })
  @IsString({ message: 'user must be a string' })
  user!: string;

  @ApiProperty({ description: 'admin, write, contributor, read, no_access, or a custom role name' })
  @Matches(ROLE_PATTERN, { message: ROLE_RULE })
  @IsString({ message: 'role must be a string' })
  role!: string;
}

export class AdminResourceGroupUsersDto {
  @ApiProperty({ type: [ResourceGroupUserDto], minItems: 1, maxItems: 100 })
  @ArrayMinSize(1, { message: 'users must name at least one user' })
  @ArrayMaxSize(100, { message: 'users must name at most 100 users' })
  @ValidateNested({ each: true })
  @Type(() => ResourceGroupUserDto)
  @IsArray({ message: 'users must be a list' })
  users!: ResourceGroupUserDto[];
}

export class ResourceGroupRepoDto {
  @ApiProperty({ enum: REPO_TYPES })
  @IsIn(REPO_TYPES, { message: `type must be one of ${REPO_TYPES.join(', ')}` })
  type!: RepoType;

  @ApiProperty({ description: 'owner/name' })
  @Matches(REPO_ID_PATTERN, { message: 'name must be of the form owner/name' })
  @IsString({ message: 'name must be a string' })
  name!: string;
}

export class AdminResourceGroupReposDto {
  @ApiProperty({ type: [ResourceGroupRepoDto], minItems: 1, maxItems: 100 })
  @ArrayMinSize(1, { message: 'repos must name at least one repository' })
  @ArrayMaxSize(100, { message: 'repos must name at most 100 repositories' })
  @ValidateNested({ each: true })
  @Type(() => ResourceGroupRepoDto)
  @IsArray({ message: 'repos must be a list' })
  repos!: ResourceGroupRepoDto[];
}

/** PATCH body (spec 4.4). */
export class UpdateResourceGroupDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @IsOptional()
  @Length(1, 200, { message: 'name must be 1..200 characters long' })
  @IsString({ message: 'name must be a string' })
  name?: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @Length(0, 500, { message: 'description must be at most 500 characters long' })
  @IsString({ message: 'description must be a string' })
  description?: string;
}

export class ResourceGroupMemberRpc {
  @Matches(OBJECT_ID_PATTERN) id!: string;
  @Matches(NAME_PATTERN) name!: string;
  @IsString() fullname!: string;
  @Matches(ROLE_PATTERN) role!: string;
}

export class CreateResourceGroupRpc extends AdminCreateResourceGroupDto {
  @Matches(NAME_PATTERN) organization!: string;
}

export class ResourceGroupRefRpc {
  @Matches(NAME_PATTERN) organization!: string;
  @Matches(OBJECT_ID_PATTERN) groupId!: string;
}

export class AddResourceGroupUsersRpc extends ResourceGroupRefRpc {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ResourceGroupMemberRpc)
  users!: ResourceGroupMemberRpc[];
}

export class AddResourceGroupReposRpc extends ResourceGroupRefRpc {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ResourceGroupRepoDto)
  repos!: ResourceGroupRepoDto[];
}

export class UpdateResourceGroupRpc extends ResourceGroupRefRpc {
  @ValidateNested()
  @Type(() => UpdateResourceGroupDto)
  changes!: UpdateResourceGroupDto;
}

export class AutoJoinOnView {
  @ApiProperty({ enum: [true] }) enabled!: true;
  @ApiProperty() role!: string;
  @ApiPropertyOptional({ enum: RESOURCE_GROUP_AUTO_JOIN_SCOPES })
  scope?: (typeof RESOURCE_GROUP_AUTO_JOIN_SCOPES)[number];
}

export class AutoJoinOffView {
  @ApiProperty({ enum: [false] }) enabled!: false;
}

export class ResourceGroupUserView {
  @ApiProperty({ enum: ['user'] }) type!: 'user';
  @ApiProperty({ pattern: OBJECT_ID_PATTERN.source }) _id!: string;
  @ApiProperty() fullname!: string;
  @ApiProperty() name!: string;
  @ApiProperty() avatarUrl!: string;
  @ApiProperty() role!: string;
  @ApiPropertyOptional() addedBy?: string;
}

export class ResourceGroupRepoView {
  @ApiProperty({ enum: REPO_TYPES }) type!: RepoType;
  @ApiProperty() name!: string;
  @ApiPropertyOptional() addedBy?: string;
  @ApiProperty() private!: boolean;
}

/** Spec 2.8. */
@ApiExtraModels(AutoJoinOnView, AutoJoinOffView)
export class ResourceGroupView {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN.source }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'string', nullable: true }) description!: string | null;
  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(AutoJoinOnView) }, { $ref: getSchemaPath(AutoJoinOffView) }] })
  autoJoin!: AutoJoinOnView | AutoJoinOffView;

  @ApiProperty({ type: [ResourceGroupUserView] }) users!: ResourceGroupUserView[];
  @ApiProperty({ type: [ResourceGroupRepoView] }) resources!: ResourceGroupRepoView[];
  /** After resources (spec 2.8 leaves those fields open): the repositories alone, as the public hub's schema requires. */
  @ApiProperty({ type: [ResourceGroupRepoView] }) repos!: ResourceGroupRepoView[];
}

export class RemoveResourceGroupUserRpc extends ResourceGroupRefRpc {
  @Matches(OBJECT_ID_PATTERN) userId!: string;
}

/** PATCH /admin/organizations/{name}/members/{user}. */
export class AdminChangeRoleDto {
  @ApiProperty({ description: 'admin, write, contributor, read, no_access, or a custom role name' })
  @Matches(ROLE_PATTERN, { message: ROLE_RULE })
  @IsString({ message: 'role must be a string' })
  role!: string;
}

/** Resource groups of an organization (spec 2.8): created and filled by the admin API, renamed by org admins. */
export const ResourceGroupsRpc = {
  Create: rpc<CreateResourceGroupRpc, ResourceGroupView>('organizations.resource-group.create', CreateResourceGroupRpc),
  AddUsers: rpc<AddResourceGroupUsersRpc, ResourceGroupView>(
    'organizations.resource-group.add-users',
    AddResourceGroupUsersRpc,
  ),
  AddRepos: rpc<AddResourceGroupReposRpc, ResourceGroupView>(
    'organizations.resource-group.add-repos',
    AddResourceGroupReposRpc,
  ),
  Update: rpc<UpdateResourceGroupRpc, ResourceGroupView>('organizations.resource-group.update', UpdateResourceGroupRpc),
  RemoveUser: rpc<RemoveResourceGroupUserRpc, ResourceGroupView>(
    'organizations.resource-group.remove-user',
    RemoveResourceGroupUserRpc,
  ),
  /** The group, only if it belongs to the organization (404 otherwise): the jobs service checks a job's resourceGroupId with it. */
  Get: rpc<ResourceGroupRefRpc, ResourceGroupView>('organizations.resource-group.get', ResourceGroupRefRpc),
} as const;
