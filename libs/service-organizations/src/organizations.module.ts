import { type DynamicModule, Module } from '@nestjs/common';
import { OutboxModule } from '@hub/messaging';
import { persistenceOptions, ServicePersistenceModule, type ServicePersistenceOptions } from '@hub/persistence';
import { ORGANIZATIONS_ENTITIES } from './organizations.entities';
import { ORGANIZATIONS_MIGRATIONS } from './migrations';
import { type OrganizationsConfig } from './organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from './organizations.tokens';
import { MembersHandler } from './members/members.handler';
import { MembershipUseCases } from './members/membership.use-cases';
import { MemberAdminUseCases } from './members/member-admin.use-cases';
import { ScimHandler } from './scim/scim.handler';
import { ScimGroupsUseCases } from './scim/scim-groups.use-cases';
import { ScimUsersUseCases } from './scim/scim-users.use-cases';
import { CreateOrganizationUseCase } from './organizations/create-organization.use-case';
import { OrganizationNamesReconciler } from './organizations/organization-names.reconciler';
import { OrganizationsHandler } from './organizations/organizations.handler';
import { AuditHandler } from './audit/audit.handler';
import { AuditIngestConsumer } from './audit/audit-ingest.consumer';
import { AuditLog } from './audit/audit-log';
import { ResourceGroupsHandler } from './resource-groups/resource-groups.handler';
import { ResourceGroupUseCases } from './resource-groups/resource-groups.use-cases';
import { McpHandler } from './mcp/mcp.handler';
import { PaperEventsConsumer } from './papers/paper-events.consumer';
import { PapersHandler } from './papers/papers.handler';
import { PaperUseCases } from './papers/papers.use-cases';
import { RepoEventIdsPruner } from './repositories/repo-event-ids.pruner';
import { RepoEventsConsumer } from './repositories/repo-events.consumer';
import { RepositoriesHandler } from './repositories/repositories.handler';
import { RepositoryCatalogue } from './repositories/repository-catalogue';
import { HubEventsHandler } from './hub-events/hub-events.handler';

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
        ResourceGroupsHandler,
        PapersHandler,
        McpHandler,
        ScimHandler,
        HubEventsHandler,
      ],
      providers: [
        { provide: ORGANIZATIONS_CONFIG, useValue: config },
        CreateOrganizationUseCase,
        MembershipUseCases,
        OrganizationNamesReconciler,
        RepositoryCatalogue,
        RepoEventsConsumer,
        RepoEventIdsPruner,
        AuditLog,
        AuditIngestConsumer,
        ResourceGroupUseCases,
        PaperUseCases,
        PaperEventsConsumer,
        MemberAdminUseCases,
        ScimUsersUseCases,
        ScimGroupsUseCases,
      ],
    };
  }
}
