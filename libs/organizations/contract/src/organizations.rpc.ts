import { AdminCreatePaperDto, AdminNamesQueryDto, type AdminPage, rpc } from '@hub/contracts';
import { AdminPublishEventDto } from './admin.dto';
import { type AuditPage, AuditPageRpc } from './audit.dto';
import { type McpSettingsView, McpUserRpc, SetMcpSettingsRpc } from './mcp.dto';
import {
  AddMemberRpc,
  ChangeRoleRpc,
  CreateOrganizationRpc,
  GetAccessRpc,
  ListForUserRpc,
  MemberRefRpc,
  OrganizationRefRpc,
} from './organizations-rpc.dto';
import {
  type AdminOrganizationView,
  type MemberView,
  type OrganizationAccess,
  type OrganizationView,
  type UserMembership,
} from './organizations.views';
import { ClaimPaperRpc, type ClaimPaperView, type PaperView } from './papers.dto';
import { ListRepositoriesRpc, type RepoUsagePage, type RepoUsageView, UpsertRepositoryRpc } from './repositories.dto';
import {
  AddResourceGroupReposRpc,
  AddResourceGroupUsersRpc,
  CreateResourceGroupRpc,
  RemoveResourceGroupUserRpc,
  ResourceGroupRefRpc,
  type ResourceGroupView,
  UpdateResourceGroupRpc,
} from './resource-groups.dto';
import {
  type ScimDeleted,
  type ScimGroupRecord,
  ScimLinkRpc,
  ScimListRpc,
  type ScimPage,
  ScimPatchRpc,
  ScimResourceRpc,
  type ScimUserRecord,
  ScimWriteRpc,
} from './scim-rpc.dto';

/** RPCs `<service>.<resource>.<verb>` with their request and reply types, declared once (style.md rule 2). */
export const OrganizationsRpc = {
  Create: rpc<CreateOrganizationRpc, OrganizationView>('organizations.organization.create', CreateOrganizationRpc),
  /** The admin API's list: organizations by name, with their member counts. */
  List: rpc<AdminNamesQueryDto, AdminPage<AdminOrganizationView>>(
    'organizations.organization.list',
    AdminNamesQueryDto,
  ),
  AddMember: rpc<AddMemberRpc, MemberView>('organizations.member.add', AddMemberRpc),
  ListMembers: rpc<OrganizationRefRpc, MemberView[]>('organizations.member.list', OrganizationRefRpc),
  GetAccess: rpc<GetAccessRpc, OrganizationAccess>('organizations.access.get', GetAccessRpc),
  ListForUser: rpc<ListForUserRpc, UserMembership[]>('organizations.membership.list-for-user', ListForUserRpc),
  RemoveMember: rpc<MemberRefRpc, { removed: true }>('organizations.member.remove', MemberRefRpc),
  ChangeRole: rpc<ChangeRoleRpc, MemberView>('organizations.member.change-role', ChangeRoleRpc),
} as const;

/** The repository catalogue kept by organizations (storage usage listings). */
export const RepositoriesRpc = {
  Upsert: rpc<UpsertRepositoryRpc, RepoUsageView>('organizations.repository.upsert', UpsertRepositoryRpc),
  List: rpc<ListRepositoriesRpc, RepoUsagePage>('organizations.repository.list', ListRepositoriesRpc),
} as const;

/** The audit log organizations keeps from `hub.audit.>`, read a page at a time (the export streams them). */
export const AuditRpc = {
  Page: rpc<AuditPageRpc, AuditPage>('organizations.audit.page', AuditPageRpc),
} as const;

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

/** Papers and claims of their author entries. */
export const PapersRpc = {
  Upsert: rpc<AdminCreatePaperDto, PaperView>('organizations.paper.upsert', AdminCreatePaperDto),
  Claim: rpc<ClaimPaperRpc, ClaimPaperView>('organizations.paper.claim', ClaimPaperRpc),
} as const;

/** A user's MCP settings. */
export const McpRpc = {
  Get: rpc<McpUserRpc, McpSettingsView>('organizations.mcp.get', McpUserRpc),
  Set: rpc<SetMcpSettingsRpc, McpSettingsView>('organizations.mcp.set', SetMcpSettingsRpc),
} as const;

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

/**
 * The admin API's "publish a hub event" (`POST /admin/events`): the organizations service
 * publishes it, so the gateway holds no right to publish on `hub.events.>` (decision 0013).
 */
export const HubEventsRpc = {
  Publish: rpc<AdminPublishEventDto, { subject: string; id: string }>(
    'organizations.hub-event.publish',
    AdminPublishEventDto,
  ),
} as const;
