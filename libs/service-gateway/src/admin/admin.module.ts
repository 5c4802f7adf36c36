import { Module } from '@nestjs/common';
import { AdminBusController } from './admin-bus.controller';
import { AdminOrganizationsController } from './admin-organizations.controller';
import { AdminResourceGroupsController } from './admin-resource-groups.controller';
import { AdminPapersController } from './admin-papers.controller';
import { AdminMcpController } from './admin-mcp.controller';
import { AdminUsersController } from './admin-users.controller';

/** `/admin/…`, bearer HUB_ADMIN_TOKEN: how an operator creates users, tokens, orgs and events. */
@Module({
  controllers: [
    AdminUsersController,
    AdminOrganizationsController,
    AdminBusController,
    AdminResourceGroupsController,
    AdminPapersController,
    AdminMcpController,
  ],
})
export class AdminApiModule {}
