import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { type NatsConnection } from 'nats';
import { type DataSource } from 'typeorm';
import { type HubConfig, loadConfig } from '@hub/config';
import { busModeFrom, MessagingModule, NATS_CONNECTION, RpcServer } from '@hub/messaging';
import { migrateService, type ServicePersistenceOptions } from '@hub/persistence';
import { createFastifyApp } from './create-fastify-app';
import { metricsAccess } from './metrics-access';
import { ObservabilityModule } from './observability.module';
import { databaseCheck, natsCheck } from './readiness';
import { startTracing } from './tracing';

export interface ServiceDefinition<C extends HubConfig> {
  name: string;
  config: new () => C;
  /** The service's Nest module for this config. */
  module: (config: C) => DynamicModule;
  persistence: (config: C) => ServicePersistenceOptions;
}

@Module({})
class ServiceApp {}

/**
 * The main of a service app in the distributed mode: `main.js` serves RPC over NATS (queue
 * group per service) with /health and /metrics on PORT; `main.js migrate` runs the
 * migrations and exits (the one-shot job of compose and Kubernetes).
 */
export async function runService<C extends HubConfig>(def: ServiceDefinition<C>, argv = process.argv): Promise<void> {
  const config = loadConfig(def.config);
  const persistence = def.persistence(config);
  if (argv[2] === 'migrate') {
    const ran = await migrateService(persistence);
    Logger.log(`${def.name}: ${ran} migration(s) ran`);
    return;
  }
  if (!config.NATS_URL) throw new Error(`NATS_URL is required: the ${def.name} service runs on its own only over NATS`);
  const mode = busModeFrom(config);
  const root: DynamicModule = {
    module: ServiceApp,
    imports: [
      MessagingModule.forRoot({
        mode,
        rpcTimeoutMs: config.HUB_RPC_TIMEOUT_MS,
        name: def.name,
        retentionDays: config.HUB_BUS_RETENTION_DAYS,
      }),
      def.module(config),
      ObservabilityModule.forApp(
        def.name,
        {
          inject: [getDataSourceToken(persistence.name), NATS_CONNECTION],
          useFactory: (ds: DataSource, nc: NatsConnection | null) => [databaseCheck('postgres', ds), ...natsCheck(nc)],
        },
        metricsAccess(config, false),
      ),
    ],
  };
  const tracing = startTracing(config, def.name);
  const app = await createFastifyApp(root, { name: def.name, logLevel: config.LOG_LEVEL });
  // The last spans go out when the app closes (SIGTERM), not lost with the process.
  if (tracing)
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onClose', () => tracing.shutdown());
  await app.init();
  await app.get(RpcServer).listen(def.name);
  await app.listen(config.PORT, config.HOST);
  Logger.log(`${def.name} service: RPC over ${config.NATS_URL}, health and metrics on port ${config.PORT}`);
}
