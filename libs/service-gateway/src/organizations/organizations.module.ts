import { Module } from '@nestjs/common';
import { OrganizationsController } from './organizations.controller';

/** `/api/organizations/{name}/…` reads of the directory. */
@Module({ controllers: [OrganizationsController] })
export class OrganizationsApiModule {}
