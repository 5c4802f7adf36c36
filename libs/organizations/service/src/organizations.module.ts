import { type DynamicModule, Module } from '@nestjs/common';
import { type OrganizationsConfig } from './organizations.config';
import { AuditModule } from './audit/audit.module';
import { AuditStreamsModule } from './audit-streams/audit-streams.module';
import { HubEventsModule } from './hub-events/hub-events.module';
import { McpModule } from './mcp/mcp.module';
import { MembersModule } from './members/members.module';
import { OrganizationsCoreModule } from './organizations-core.module';
import { OrganizationsDirectoryModule } from './organizations/organizations-directory.module';
import { PapersModule } from './papers/papers.module';
import { RepositoriesModule } from './repositories/repositories.module';
import { ResourceGroupsModule } from './resource-groups/resource-groups.module';
import { ScimModule } from './scim/scim.module';

/** The areas of the service, one module each: its use cases (each serving its RPC), consumers and workers. */
const AREAS = [
  OrganizationsDirectoryModule,
  MembersModule,
  RepositoriesModule,
  AuditModule,
  AuditStreamsModule,
  ResourceGroupsModule,
  PapersModule,
  McpModule,
  ScimModule,
  HubEventsModule,
];

/**
 * Organizations, plans, members and roles, storage usage, the audit log and its streams, resource
 * groups, SCIM, papers and MCP settings: every area on one shared core (DataSource, outbox, config).
 */
@Module({})
export class OrganizationsModule {
  static forRoot(config: OrganizationsConfig): DynamicModule {
    const core = OrganizationsCoreModule.forRoot(config);
    return { module: OrganizationsModule, imports: AREAS.map((area) => area.register(core)) };
  }
}
