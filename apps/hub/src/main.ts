import 'reflect-metadata';
import { join } from 'node:path';
import { RpcClient } from '@hub/messaging';
import { installRequestErrorBackstop } from '@hub/service-gateway';
import { EmbeddedPostgresError, UnmigratedDatabaseError } from '@hub/persistence';
import { startTracing } from '@hub/observability';
import { HubConfig, loadConfig } from '@hub/config';
import { createHub } from './create-hub';
import { ensureDemoUser } from './demo-user';
import { restoreDataDir } from './restore-data-dir';

/** `npm start`: the whole hub in one process. */
async function main(): Promise<void> {
  installRequestErrorBackstop();
  // One tracer provider for the whole hub, registered before its modules start (decision 0504).
  const tracing = startTracing(loadConfig(HubConfig), 'hub');
  const hub = await createHub();
  if (tracing)
    hub.app
      .getHttpAdapter()
      .getInstance()
      .addHook('onClose', () => tracing.shutdown());
  const { HUB_DATA_DIR } = hub.configs.gateway;
  const pgsql = hub.embeddedPostgres;
  const port = await hub.listen();
  const publicUrl = hub.configs.gateway.publicUrl;
  const demo = await ensureDemoUser(hub.app.get(RpcClient));
  const base = `http://localhost:${port}`;
  const lines = [
    '',
    `Hub is running at ${base} (public URL ${publicUrl})`,
    `  database: ${pgsql ? `embedded PostgreSQL in ${pgsql.pgData}${pgsql.adopted ? ' (adopted, left running by an earlier start)' : ''}` : 'PostgreSQL (DATABASE_URL)'}`,
    `  bus:      ${hub.mode.kind === 'nats' ? 'NATS' : 'in-process'}`,
    `  API docs: ${base}/docs`,
    '',
    demo.token
      ? `Demo user "demo" created. Its token (shown once):\n  ${demo.token}\n  try: curl -H "Authorization: Bearer ${demo.token}" ${base}/api/whoami-v2`
      : `Demo user "demo" exists. New token: npm run hubctl -- tokens create demo --role write`,
    '',
    // A secret goes to the terminal (and whatever collects its output) once, when it is made.
    hub.adminTokenSource === 'generated'
      ? `Admin token (generated, shown once, kept in ${join(HUB_DATA_DIR, 'admin-token')}):\n  ${hub.adminToken}`
      : `Admin token: ${hub.adminTokenSource === 'env' ? 'from HUB_ADMIN_TOKEN' : `kept in ${join(HUB_DATA_DIR, 'admin-token')}`}`,
    `  hubctl finds it there: npm run hubctl -- users create alice --email alice@example.com`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

/** `main.js restore <file> <pg_restore>`: hubctl restore's one-shot into a new data directory. */
async function restore(file: string, pgRestore: string): Promise<void> {
  await restoreDataDir(loadConfig(HubConfig).HUB_DATA_DIR, file, pgRestore);
}

const [command, ...args] = process.argv.slice(2);
(command === 'restore' && args.length === 2 ? restore(args[0], args[1]) : main()).catch((err: unknown) => {
  // What the user can fix (an earlier version's data directory, no binaries, a database not migrated) is said plainly.
  console.error(err instanceof EmbeddedPostgresError || err instanceof UnmigratedDatabaseError ? err.message : err);
  process.exit(1);
});
