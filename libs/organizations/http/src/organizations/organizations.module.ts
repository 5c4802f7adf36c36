import { Module } from '@nestjs/common';
import { OrganizationsController } from './organizations.controller';
import { RepoUsageController } from './repo-usage.controller';
import { AuditExportController } from './audit-export.controller';
import { ResourceGroupsController } from './resource-groups.controller';
import { PapersController } from './papers.controller';
import { McpController } from './mcp.controller';

/** `/api/organizations/{name}/…`: members, storage usage, the audit log export, resource groups; papers and MCP settings. */
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
export class DirectoryApiModule {}
