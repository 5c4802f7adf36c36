import { Module } from '@nestjs/common';
import { AuditStreamsApiModule } from './audit-streams/audit-streams.module';
import { DirectoryApiModule } from './organizations/organizations.module';
import { ScimApiModule } from './scim/scim.module';

/** The organizations feature's routes, one module per area: the directory, audit log streams, SCIM. */
@Module({ imports: [DirectoryApiModule, AuditStreamsApiModule, ScimApiModule] })
export class OrganizationsApiModule {}
