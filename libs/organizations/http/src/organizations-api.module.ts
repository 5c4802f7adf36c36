import { Module } from '@nestjs/common';
import { AuditStreamsApiModule } from './audit-streams/audit-streams.module';
import { DirectoryApiModule } from './organizations/organizations.module';
import { ScimApiModule } from './scim/scim.module';
import { OrganizationsAdminApiModule } from './admin/admin.module';

/** The organizations feature's routes, one module per area: the directory, audit log streams, SCIM, the admin API's. */
@Module({ imports: [DirectoryApiModule, AuditStreamsApiModule, ScimApiModule, OrganizationsAdminApiModule] })
export class OrganizationsApiModule {}
