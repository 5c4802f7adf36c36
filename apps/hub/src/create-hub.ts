import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@hub/config';
import { type BusMode, busModeFrom, RpcServer } from '@hub/messaging';
import { CredentialsConfig } from '@hub/service-credentials';
import { createGatewayApp, GatewayConfig } from '@hub/service-gateway';
import { JobsConfig } from '@hub/service-jobs';
import { OrganizationsConfig } from '@hub/service-organizations';
import { NotificationsConfig } from '@hub/service-notifications';
import { WebhooksConfig } from '@hub/service-webhooks';
import { type AdminTokenSource, adminTokenFor, secretKeyFor } from './admin-token';
import { type HubConfigs, HubModule } from './hub.module';

export interface Hub {
  app: NestFastifyApplication;
  configs: HubConfigs;
  mode: BusMode;
  adminToken: string;
  /** Where the admin token came from: made now (print it once), the data directory, or HUB_ADMIN_TOKEN. */
  adminTokenSource: AdminTokenSource;
}

/**
 * Builds the all-in-one hub (not yet listening): every service in one process, in-process
 * transport unless NATS_URL is set, embedded PGlite unless DATABASE_URL is set.
 */
export async function createHub(env: NodeJS.ProcessEnv = process.env): Promise<Hub> {
  const gateway = loadConfig(GatewayConfig, env);
  const admin = gateway.HUB_ADMIN_TOKEN ? { token: gateway.HUB_ADMIN_TOKEN, source: 'env' as const } : adminTokenFor(gateway.HUB_DATA_DIR);
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
  // One process, one address: links point at this hub's own port unless told otherwise.
  for (const c of Object.values(configs)) c.HUB_PUBLIC_URL ??= `http://localhost:${gateway.PORT}`;
  const mode = busModeFrom(gateway);
  const app = await createGatewayApp(HubModule.create(configs, mode), gateway, 'hub');
  await app.init();
  await app.get(RpcServer).listen('hub');
  return { app, configs, mode, adminToken: admin.token, adminTokenSource: admin.source };
}
