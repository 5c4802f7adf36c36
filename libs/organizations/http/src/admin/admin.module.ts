import { Module } from '@nestjs/common';
import { AdminBusController } from './admin-bus.controller';
import { AdminOrganizationsController } from './admin-organizations.controller';
import { AdminResourceGroupsController } from './admin-resource-groups.controller';
import { AdminPapersController } from './admin-papers.controller';
import { AdminMcpController } from './admin-mcp.controller';

/** `/admin/…` of organizations, bearer HUB_ADMIN_TOKEN: orgs, members, resource groups, repos, hub events, papers, MCP. */
@Module({
  controllers: [
    AdminOrganizationsController,
    AdminBusController,
    AdminResourceGroupsController,
    AdminPapersController,
    AdminMcpController,
  ],
})
export class OrganizationsAdminApiModule {}
