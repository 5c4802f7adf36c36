import { type AddressInfo } from 'node:net';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@hub/config';
import { type BusMode, busModeFrom, RpcServer } from '@hub/messaging';
import { EmbeddedPostgres, protectDataDir } from '@hub/persistence';
import { CredentialsConfig } from '@hub/credentials-service';
import { createGatewayApp, GatewayConfig } from '@hub/service-gateway';
import { JobsConfig } from '@hub/jobs-service';
import { OrganizationsConfig } from '@hub/organizations-service';
import { NotificationsConfig } from '@hub/notifications-service';
import { WebhooksConfig } from '@hub/webhooks-service';
import { HttpMetrics } from '@hub/observability';
import { type AdminTokenSource, adminTokenFor, secretKeyFor } from './admin-token';
import { registerEmbeddedPostgresMetric } from './embedded-postgres-metric';
import { type HubConfigs, HubModule } from './hub.module';

export interface Hub {
  app: NestFastifyApplication;
  configs: HubConfigs;
  mode: BusMode;
  adminToken: string;
  /** Where the admin token came from: made now (print it once), the data directory, or HUB_ADMIN_TOKEN. */
  adminTokenSource: AdminTokenSource;
  /** The PostgreSQL the hub runs itself when DATABASE_URL is unset; stopped when the app closes. */
  embeddedPostgres?: EmbeddedPostgres;
  /** Listens on PORT and HOST; answers the port bound (PORT=0 picks a free one). */
  listen(): Promise<number>;
}

/**
 * Builds the all-in-one hub (not yet listening): every service in one process, in-process
 * transport unless NATS_URL is set, an embedded PostgreSQL unless DATABASE_URL is set.
 */
export async function createHub(env: NodeJS.ProcessEnv = process.env): Promise<Hub> {
  const gateway = loadConfig(GatewayConfig, env);
  // Keys, tokens and the database live here: the hub's user's only (issue 22 item 3).
  protectDataDir(gateway.HUB_DATA_DIR);
  // First, so that a data directory it cannot use (an earlier version's PGlite) gets nothing new.
  const embeddedPostgres = gateway.DATABASE_URL
    ? undefined
    : await EmbeddedPostgres.start({ dataDir: gateway.HUB_DATA_DIR });
  const admin = gateway.HUB_ADMIN_TOKEN
    ? { token: gateway.HUB_ADMIN_TOKEN, source: 'env' as const }
    : adminTokenFor(gateway.HUB_DATA_DIR);
  gateway.HUB_ADMIN_TOKEN = admin.token;
  const configs: HubConfigs = {
    gateway,
    credentials: loadConfig(CredentialsConfig, env),
    organizations: loadConfig(OrganizationsConfig, env),
    notifications: loadConfig(NotificationsConfig, env),
    jobs: loadConfig(JobsConfig, env),
    webhooks: loadConfig(WebhooksConfig, env),
  };
  // Like the admin token: one generated and kept under the data dir when unset (architecture section 8).
  configs.webhooks.HUB_SECRET_KEY ??= secretKeyFor(gateway.HUB_DATA_DIR);
  configs.jobs.HUB_SECRET_KEY ??= configs.webhooks.HUB_SECRET_KEY;
  configs.organizations.HUB_SECRET_KEY ??= configs.webhooks.HUB_SECRET_KEY;
  // One process, one address: links point at this hub's own port unless told otherwise.
  const publicUrlGiven = gateway.HUB_PUBLIC_URL !== undefined;
  const pointLinksAt = (port: number) => {
    for (const c of Object.values(configs))
      c.HUB_PUBLIC_URL = publicUrlGiven ? c.HUB_PUBLIC_URL : `http://localhost:${port}`;
  };
  pointLinksAt(gateway.PORT);
  if (embeddedPostgres) {
    for (const c of Object.values(configs)) {
      // Migrations run at start on the embedded database, as the default says (HubConfig.migrateOnStart).
      c.HUB_MIGRATE_ON_START ??= true;
      c.DATABASE_URL = embeddedPostgres.url;
    }
  }
  const mode = busModeFrom(gateway);
  // The database stops with the app (SIGTERM, SIGINT or app.close()), once the app's connections are closed.
  const stopDatabase = {
    provide: 'HUB_EMBEDDED_POSTGRES',
    useValue: { onApplicationShutdown: () => embeddedPostgres?.stopWhenIdle() },
  };
  const app = await createGatewayApp(HubModule.create(configs, mode, [stopDatabase]), gateway, 'hub');
  await app.init();
  if (embeddedPostgres) registerEmbeddedPostgresMetric(app.get(HttpMetrics).registry, embeddedPostgres);
  await app.get(RpcServer).listen('hub');
  const listen = async (): Promise<number> => {
    await app.listen(gateway.PORT, gateway.HOST);
    const port = (app.getHttpServer().address() as AddressInfo).port;
    // PORT=0: the links follow the port the system picked, not port 0.
    if (port !== gateway.PORT) pointLinksAt(port);
    return port;
  };
  return { app, configs, mode, adminToken: admin.token, adminTokenSource: admin.source, embeddedPostgres, listen };
}
