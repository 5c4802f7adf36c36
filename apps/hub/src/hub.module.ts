import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { type NatsConnection } from 'nats';
import { type DataSource } from 'typeorm';
import { type BusMode, MessagingModule, NATS_CONNECTION } from '@hub/messaging';
import { CredentialsApiModule } from '@hub/credentials-http';
import { JobsApiModule } from '@hub/jobs-http';
import { NotificationsApiModule } from '@hub/notifications-http';
import { OrganizationsApiModule } from '@hub/organizations-http';
import { WebhooksApiModule } from '@hub/webhooks-http';
import { databaseCheck, metricsAccess, natsCheck, ObservabilityModule } from '@hub/observability';
import { CREDENTIALS_DS, type CredentialsConfig, CredentialsModule } from '@hub/credentials-service';
import { type GatewayConfig, GatewayModule } from '@hub/service-gateway';
import { JOBS_DS, type JobsConfig, JobsModule } from '@hub/jobs-service';
import { ORGANIZATIONS_DS, type OrganizationsConfig, OrganizationsModule } from '@hub/organizations-service';
import { NOTIFICATIONS_DS, type NotificationsConfig, NotificationsModule } from '@hub/notifications-service';
import { WEBHOOKS_DS, type WebhooksConfig, WebhooksModule } from '@hub/webhooks-service';

export interface HubConfigs {
  gateway: GatewayConfig;
  credentials: CredentialsConfig;
  organizations: OrganizationsConfig;
  notifications: NotificationsConfig;
  jobs: JobsConfig;
  webhooks: WebhooksConfig;
}

/** Every service module in one process: the all-in-one composition. */
@Module({})
export class HubModule {
  static create(configs: HubConfigs, mode: BusMode, providers: Provider[] = []): DynamicModule {
    return {
      module: HubModule,
      providers,
      imports: [
        MessagingModule.forRoot({
          mode,
          rpcTimeoutMs: configs.gateway.HUB_RPC_TIMEOUT_MS,
          name: 'hub',
          retentionDays: configs.gateway.HUB_BUS_RETENTION_DAYS,
          // The in-process bus keeps its events in the hub's own database (schema `bus`).
          store: { databaseUrl: configs.gateway.DATABASE_URL },
        }),
        CredentialsModule.forRoot(configs.credentials),
        OrganizationsModule.forRoot(configs.organizations),
        NotificationsModule.forRoot(configs.notifications),
        JobsModule.forRoot(configs.jobs),
        WebhooksModule.forRoot(configs.webhooks),
        GatewayModule.forRoot(configs.gateway, [
          CredentialsApiModule,
          JobsApiModule,
          NotificationsApiModule,
          OrganizationsApiModule,
          WebhooksApiModule,
        ]),
        ObservabilityModule.forApp(
          'hub',
          {
            inject: [
              getDataSourceToken(CREDENTIALS_DS),
              getDataSourceToken(ORGANIZATIONS_DS),
              getDataSourceToken(NOTIFICATIONS_DS),
              getDataSourceToken(JOBS_DS),
              getDataSourceToken(WEBHOOKS_DS),
              NATS_CONNECTION,
            ],
            useFactory: (
              c: DataSource,
              o: DataSource,
              n: DataSource,
              j: DataSource,
              w: DataSource,
              nc: NatsConnection | null,
            ) => [
              databaseCheck('credentials-db', c),
              databaseCheck('organizations-db', o),
              databaseCheck('notifications-db', n),
              databaseCheck('jobs-db', j),
              databaseCheck('webhooks-db', w),
              ...natsCheck(nc),
            ],
          },
          metricsAccess(configs.gateway, true),
        ),
      ],
    };
  }
}
