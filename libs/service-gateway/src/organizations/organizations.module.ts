import { Module } from '@nestjs/common';
import { OrganizationsController } from './organizations.controller';
import { RepoUsageController } from './repo-usage.controller';
import { AuditExportController } from './audit-export.controller';

/** `/api/organizations/{name}/…` reads of the directory. */
@Module({ controllers: [OrganizationsController, RepoUsageController, AuditExportController] })
export class OrganizationsApiModule {}
