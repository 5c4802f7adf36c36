import { Module } from '@nestjs/common';
import { OrganizationsController } from './organizations.controller';
import { RepoUsageController } from './repo-usage.controller';

/** `/api/organizations/{name}/…` reads of the directory. */
@Module({ controllers: [OrganizationsController, RepoUsageController] })
export class OrganizationsApiModule {}
