import { Module } from '@nestjs/common';
import { ScimAdminController } from './scim-admin.controller';
import { ScimDiscoveryController } from './scim-discovery.controller';
import { ScimGroupsController } from './scim-groups.controller';
import { ScimUsersController } from './scim-users.controller';

/** `/api/organizations/{name}/scim/v2/…`: SCIM 2.0 provisioning (decision 0420). */
@Module({ controllers: [ScimUsersController, ScimGroupsController, ScimDiscoveryController, ScimAdminController] })
export class ScimApiModule {}
