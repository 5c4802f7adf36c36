import 'reflect-metadata';
import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { type NatsConnection } from 'nats';
import { loadConfig } from '@hub/config';
import { CredentialsApiModule } from '@hub/credentials-http';
import { JobsApiModule } from '@hub/jobs-http';
import { NotificationsApiModule } from '@hub/notifications-http';
import { OrganizationsApiModule } from '@hub/organizations-http';
import { WebhooksApiModule } from '@hub/webhooks-http';
import { busModeFrom, MessagingModule, NATS_CONNECTION } from '@hub/messaging';
import { metricsAccess, natsCheck, ObservabilityModule, startTracing } from '@hub/observability';
import { createGatewayApp, GatewayConfig, GatewayModule, installRequestErrorBackstop } from '@hub/service-gateway';

@Module({})
class GatewayApp {
  static create(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayApp,
      imports: [
        MessagingModule.forRoot({
          mode: busModeFrom(config),
          rpcTimeoutMs: config.HUB_RPC_TIMEOUT_MS,
          name: 'gateway',
          retentionDays: config.HUB_BUS_RETENTION_DAYS,
        }),
        GatewayModule.forRoot(config, [
          CredentialsApiModule,
          JobsApiModule,
          NotificationsApiModule,
          OrganizationsApiModule,
          WebhooksApiModule,
        ]),
        ObservabilityModule.forApp(
          'gateway',
          { inject: [NATS_CONNECTION], useFactory: (nc: NatsConnection | null) => natsCheck(nc) },
          metricsAccess(config, true),
        ),
      ],
    };
  }
}

async function main(): Promise<void> {
  installRequestErrorBackstop();
  const config = loadConfig(GatewayConfig);
  if (!config.NATS_URL) throw new Error('NATS_URL is required: the gateway reaches the services over NATS');
  const tracing = startTracing(config, 'gateway');
  const app = await createGatewayApp(GatewayApp.create(config), config);
  if (tracing)
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onClose', () => tracing.shutdown());
  await app.listen(config.PORT, config.HOST);
  Logger.log(`gateway listening on ${config.HOST}:${config.PORT}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
