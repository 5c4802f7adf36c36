import { type DynamicModule, Module } from '@nestjs/common';
import { OutboxModule } from '@hub/messaging';
import { persistenceOptions, ServicePersistenceModule, type ServicePersistenceOptions } from '@hub/persistence';
import { ORGANIZATIONS_ENTITIES } from './organizations.entities';
import { ORGANIZATIONS_MIGRATIONS } from './migrations';
import { type OrganizationsConfig } from './organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from './organizations.di';
import { MembersHandler } from './members/members.handler';
import { ScimHandler } from './scim/scim.handler';
import { CreateOrganizationUseCase } from './organizations/create-organization.use-case';
import { ListOrganizationsUseCase } from './organizations/list-organizations.use-case';
import { OrganizationNamesReconciler } from './organizations/organization-names.reconciler';
import { OrganizationsHandler } from './organizations/organizations.handler';
import { AuditHandler } from './audit/audit.handler';
import { AuditIngestConsumer } from './audit/audit-ingest.consumer';
import { AuditLog } from './audit/audit-log';
import { AuditStreamsHandler } from './audit-streams/audit-streams.handler';
import { AUDIT_STREAMS_PROVIDERS } from './audit-streams/audit-streams.providers';
import { ResourceGroupsHandler } from './resource-groups/resource-groups.handler';
import { McpHandler } from './mcp/mcp.handler';
import { PaperEventsConsumer } from './papers/paper-events.consumer';
import { PapersHandler } from './papers/papers.handler';
import { RepoEventIdsPruner } from './repositories/repo-event-ids.pruner';
import { AuditRetention } from './audit/audit-retention';
import { RepoEventsConsumer } from './repositories/repo-events.consumer';
import { RepositoriesHandler } from './repositories/repositories.handler';
import { ListRepositoriesUseCase } from './repositories/list-repositories.use-case';
import { UpsertRepositoryUseCase } from './repositories/upsert-repository.use-case';
import { HubEventsHandler } from './hub-events/hub-events.handler';
import { PublishHubEventUseCase } from './hub-events/publish-hub-event.use-case';
import { GetAuditPageUseCase } from './audit/get-audit-page.use-case';
import { AddMemberUseCase } from './members/add-member.use-case';
import { ListMembersUseCase } from './members/list-members.use-case';
import { GetMemberAccessUseCase } from './members/get-member-access.use-case';
import { ListUserMembershipsUseCase } from './members/list-user-memberships.use-case';
import { RemoveMemberUseCase } from './members/remove-member.use-case';
import { ChangeMemberRoleUseCase } from './members/change-member-role.use-case';
import { CreateResourceGroupUseCase } from './resource-groups/create-resource-group.use-case';
import { AddResourceGroupUsersUseCase } from './resource-groups/add-resource-group-users.use-case';
import { AddResourceGroupReposUseCase } from './resource-groups/add-resource-group-repos.use-case';
import { UpdateResourceGroupUseCase } from './resource-groups/update-resource-group.use-case';
import { GetResourceGroupUseCase } from './resource-groups/get-resource-group.use-case';
import { RemoveResourceGroupUserUseCase } from './resource-groups/remove-resource-group-user.use-case';
import { UpsertPaperUseCase } from './papers/upsert-paper.use-case';
import { ClaimPaperUseCase } from './papers/claim-paper.use-case';
import { GetMcpSettingsUseCase } from './mcp/get-mcp-settings.use-case';
import { SetMcpSettingsUseCase } from './mcp/set-mcp-settings.use-case';
import { ListScimUsersUseCase } from './scim/list-scim-users.use-case';
import { GetScimUserUseCase } from './scim/get-scim-user.use-case';
import { CreateScimUserUseCase } from './scim/create-scim-user.use-case';
import { ReplaceScimUserUseCase } from './scim/replace-scim-user.use-case';
import { PatchScimUserUseCase } from './scim/patch-scim-user.use-case';
import { DeleteScimUserUseCase } from './scim/delete-scim-user.use-case';
import { LinkScimUserUseCase } from './scim/link-scim-user.use-case';
import { ListScimGroupsUseCase } from './scim/list-scim-groups.use-case';
import { GetScimGroupUseCase } from './scim/get-scim-group.use-case';
import { CreateScimGroupUseCase } from './scim/create-scim-group.use-case';
import { ReplaceScimGroupUseCase } from './scim/replace-scim-group.use-case';
import { PatchScimGroupUseCase } from './scim/patch-scim-group.use-case';
import { DeleteScimGroupUseCase } from './scim/delete-scim-group.use-case';

export const ORGANIZATIONS_SCHEMA = 'organizations';

export function organizationsPersistence(config: OrganizationsConfig): ServicePersistenceOptions {
  return persistenceOptions(
    {
      name: ORGANIZATIONS_DS,
      schema: ORGANIZATIONS_SCHEMA,
      entities: ORGANIZATIONS_ENTITIES,
      migrations: ORGANIZATIONS_MIGRATIONS,
    },
    config,
  );
}

/** Organizations, plans, members and roles (the directory part). */
@Module({})
export class OrganizationsModule {
  static forRoot(config: OrganizationsConfig): DynamicModule {
    return {
      module: OrganizationsModule,
      imports: [
        ServicePersistenceModule.forService(organizationsPersistence(config)),
        OutboxModule.forService({ dataSource: ORGANIZATIONS_DS, schema: ORGANIZATIONS_SCHEMA }),
      ],
      controllers: [
        OrganizationsHandler,
        MembersHandler,
        RepositoriesHandler,
        AuditHandler,
        AuditStreamsHandler,
        ResourceGroupsHandler,
        PapersHandler,
        McpHandler,
        ScimHandler,
        HubEventsHandler,
      ],
      providers: [
        { provide: ORGANIZATIONS_CONFIG, useValue: config },
        CreateOrganizationUseCase,
        ListOrganizationsUseCase,
        OrganizationNamesReconciler,
        UpsertRepositoryUseCase,
        ListRepositoriesUseCase,
        RepoEventsConsumer,
        RepoEventIdsPruner,
        AuditLog,
        AuditRetention,
        GetAuditPageUseCase,
        PublishHubEventUseCase,
        AuditIngestConsumer,
        PaperEventsConsumer,
        AddMemberUseCase,
        ListMembersUseCase,
        GetMemberAccessUseCase,
        ListUserMembershipsUseCase,
        RemoveMemberUseCase,
        ChangeMemberRoleUseCase,
        CreateResourceGroupUseCase,
        AddResourceGroupUsersUseCase,
        AddResourceGroupReposUseCase,
        UpdateResourceGroupUseCase,
        GetResourceGroupUseCase,
        RemoveResourceGroupUserUseCase,
        UpsertPaperUseCase,
        ClaimPaperUseCase,
        GetMcpSettingsUseCase,
        SetMcpSettingsUseCase,
        ListScimUsersUseCase,
        GetScimUserUseCase,
        CreateScimUserUseCase,
        ReplaceScimUserUseCase,
        PatchScimUserUseCase,
        DeleteScimUserUseCase,
        LinkScimUserUseCase,
        ListScimGroupsUseCase,
        GetScimGroupUseCase,
        CreateScimGroupUseCase,
        ReplaceScimGroupUseCase,
        PatchScimGroupUseCase,
        DeleteScimGroupUseCase,
        ...AUDIT_STREAMS_PROVIDERS,
      ],
    };
  }
}
