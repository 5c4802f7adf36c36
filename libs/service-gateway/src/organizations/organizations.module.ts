import { Module } from '@nestjs/common';
import { OrganizationsController } from './organizations.controller';
import { RepoUsageController } from './repo-usage.controller';
import { AuditExportController } from './audit-export.controller';
import { ResourceGroupsController } from './resource-groups.controller';
import { PapersController } from './papers.controller';
import { McpController } from './mcp.controller';

/** `/api/organizations/{name}/…` reads of the directory. */
@Module({
  controllers: [
    OrganizationsController,
    RepoUsageController,
    AuditExportController,
    ResourceGroupsController,
    PapersController,
    McpController,
  ],
})
export class OrganizationsApiModule {}
