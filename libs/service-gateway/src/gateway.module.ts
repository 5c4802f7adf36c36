import { type DynamicModule, Module } from '@nestjs/common';
import { AdminApiModule } from './admin/admin.module';
import { ConsoleApiModule } from './console/console.module';
import { type GatewayConfig } from './core/gateway.config';
import { GatewayCoreModule } from './core/gateway-core.module';
import { CredentialsApiModule } from './credentials/credentials.module';
import { JobsApiModule } from './jobs/jobs.module';
import { OrganizationsApiModule } from './organizations/organizations.module';
import { AuditStreamsApiModule } from './audit-streams/audit-streams.module';
import { NotificationsApiModule } from './notifications/notifications.module';
import { WebhooksApiModule } from './webhooks/webhooks.module';
import { ScimApiModule } from './scim/scim.module';

/**
 * The HTTP edge: owns no tables, reaches services only through the RPC client. One folder and
 * one module per service area; a new area is one more import here.
 */
const AREAS = [
  CredentialsApiModule,
  OrganizationsApiModule,
  AuditStreamsApiModule,
  AdminApiModule,
  NotificationsApiModule,
  JobsApiModule,
  WebhooksApiModule,
  ScimApiModule,
  ConsoleApiModule,
];

@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return { module: GatewayModule, imports: [GatewayCoreModule.forRoot(config), ...AREAS] };
  }
}
