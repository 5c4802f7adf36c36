// The servers under test, each started from the built apps (dist/apps) or bench/gateway, on
// free local ports. Each start returns { url, procs, stop }.
import { join, resolve } from 'node:path';
import { hubNodeArgs } from '../../tools/start.mjs';
import { startBenchNats } from './bench-nats.mjs';
import { freePort, runNode, startNode, stop, waitOutput, waitReady } from './processes.mjs';

/** Limits raised so the bench measures the work, not the rate limiter's 429s. */
const UNLIMITED = { HUB_RATE_LIMIT_PER_MINUTE: '1000000000', HUB_REVOKE_RATE_LIMIT_PER_MINUTE: '1000000' };

function stopper(procs) {
  return () => Promise.all(procs.map((p) => stop(p)));
}

/**
 * The all-in-one hub: every service in one process, in-process bus; Postgres when databaseUrl.
 * `main` and `nodeOptions` run another build or other Node flags (the A/B variant of run.mjs).
 */
export async function startHub({
  root,
  logDir,
  adminToken,
  dataDir,
  databaseUrl,
  name,
  main = 'dist/apps/hub/main.js',
  nodeOptions,
}) {
  const port = await freePort();
  const env = {
    ...UNLIMITED,
    PORT: String(port),
    HOST: '127.0.0.1',
    HUB_ADMIN_TOKEN: adminToken,
    HUB_DATA_DIR: dataDir,
    NATS_URL: undefined,
    DATABASE_URL: undefined,
  };
  if (nodeOptions !== undefined) env.NODE_OPTIONS = nodeOptions;
  // With DATABASE_URL migrations are off by default (a separate job in production): on here.
  if (databaseUrl) Object.assign(env, { DATABASE_URL: databaseUrl, HUB_MIGRATE_ON_START: 'true' });
  // With the Node flags `npm start` gives the hub (a variant's NODE_OPTIONS may override them).
  const hub = startNode(name, [...hubNodeArgs({ ...process.env, ...env }), resolve(root, main)], {
    env,
    logDir,
    cwd: root,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitOutput(hub, 'Admin token', 120_000);
  await waitReady(hub, `${url}/health/ready`);
  return { url, procs: [hub], stop: stopper([hub]) };
}

/**
 * Gateway + credentials + organizations as separate processes over NATS and Postgres: a NATS of
 * the run's own with the hub's users and permissions (bench-nats.mjs), each app as its own user.
 * The result's `nats` has the bench's own connect options.
 */
export async function startDistributed({ root, logDir, adminToken, databaseUrl, busPrefix, extraServices = [] }) {
  const nats = await startBenchNats({ root, logDir, busPrefix });
  const common = { DATABASE_URL: databaseUrl, HUB_BUS_PREFIX: busPrefix, HOST: '127.0.0.1' };
  const app = (name) => join(root, `dist/apps/${name}/main.js`);
  await runNode('credentials-migrate', [app('credentials'), 'migrate'], { env: common, logDir, cwd: root });
  await runNode('organizations-migrate', [app('organizations'), 'migrate'], { env: common, logDir, cwd: root });
  for (const name of extraServices)
    await runNode(`${name}-migrate`, [app(name), 'migrate'], { env: common, logDir, cwd: root });
  const [credPort, orgPort, gwPort] = [await freePort(), await freePort(), await freePort()];
  const credentials = startNode('credentials', [app('credentials')], {
    env: { ...common, ...nats.env('credentials'), PORT: String(credPort) },
    logDir,
    cwd: root,
  });
  const organizations = startNode('organizations', [app('organizations')], {
    env: { ...common, ...nats.env('organizations'), PORT: String(orgPort) },
    logDir,
    cwd: root,
  });
  const procs = [credentials, organizations];
  // Other services a bench needs beside these two (e.g. notifications), each on its own port.
  const extras = [];
  for (const name of extraServices) {
    const port = await freePort();
    const proc = startNode(name, [app(name)], {
      env: { ...common, ...nats.env(name), PORT: String(port) },
      logDir,
      cwd: root,
    });
    procs.push(proc);
    extras.push([proc, port]);
  }
  try {
    await waitReady(credentials, `http://127.0.0.1:${credPort}/health/ready`);
    await waitReady(organizations, `http://127.0.0.1:${orgPort}/health/ready`);
    for (const [proc, port] of extras) await waitReady(proc, `http://127.0.0.1:${port}/health/ready`);
    const { DATABASE_URL: _unused, ...gatewayEnv } = common;
    const gateway = startNode('gateway', [app('gateway')], {
      env: {
        ...gatewayEnv,
        ...nats.env('gateway'),
        DATABASE_URL: undefined,
        ...UNLIMITED,
        PORT: String(gwPort),
        HUB_ADMIN_TOKEN: adminToken,
      },
      logDir,
      cwd: root,
    });
    procs.unshift(gateway);
    await waitReady(gateway, `http://127.0.0.1:${gwPort}/health/ready`);
  } catch (error) {
    await stopper(procs)();
    await nats.stop();
    throw error;
  }
  const stopAllOfIt = async () => {
    await stopper(procs)();
    await nats.stop();
  };
  return { url: `http://127.0.0.1:${gwPort}`, procs, nats, stop: stopAllOfIt };
}

/** The bare Fastify handler (bare-server.mjs) in one process. */
export async function startBare({ root, logDir, databaseUrl, mode }) {
  const port = await freePort();
  const bare = startNode(`bare-${mode}`, [join(root, 'bench/gateway/bare-server.mjs'), mode, databaseUrl], {
    env: { PORT: String(port) },
    logDir,
    cwd: root,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(bare, `${url}/health/ready`);
  return { url, procs: [bare], stop: stopper([bare]) };
}
