import { createServer } from 'node:net';
import { AuthenticatedNats } from './nats-auth';
import { freePort, type RunningProcess, startApp } from './processes';
import { createTestDatabase, type TestDatabase } from './test-database';

type Env = Record<string, string>;

export interface DistributedHubOptions {
  /** HUB_BUS_PREFIX when the jest setup gave this file none. */
  busPrefix: string;
  adminToken: string;
  /** The services (not the gateway), started in this order, each migrated first. */
  services: string[];
  /** Every process's environment, besides DATABASE_URL, HUB_BUS_PREFIX, HUB_ADMIN_TOKEN, HOST and its NATS user; a function runs at start (for a receiver's URL). */
  env?: Env | (() => Env);
  /** One service's own variables (on every replica of it). */
  serviceEnv?: Record<string, Env>;
  /** How many processes of a service (1 unless said). */
  replicas?: Record<string, number>;
  /** How many gateway replicas, or each one's own variables (default 1). */
  gateways?: number | Env[];
  /** The migrations side by side, as the compose stack and the k8s Job run them (default one after the other). */
  parallelMigrations?: boolean;
  /** Where a process listens (default a free port from the kernel). */
  port?: () => Promise<number>;
  /** How long a process may take to answer /health/ready (polled; fails at once if it exits). */
  readyTimeoutMs?: number;
}

/** One process of the hub: its port and environment stay across a restart. */
export interface HubProcess {
  readonly app: string;
  readonly port: number;
  readonly url: string;
  readonly env: Env;
  /** The process now running (a new one after `restart`). */
  readonly proc: RunningProcess;
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the app again on its port with its environment and waits until it is ready. */
  restart(): Promise<void>;
}

/**
 * A free port below the kernel's ephemeral range (32768+): apps take a while to boot on a busy
 * machine, and a port from listen(0) could meanwhile become some client's local port.
 */
export async function bootPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((r) => {
      const srv = createServer().once('error', () => r(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => r(true)));
    });
    if (free) return port;
  }
}

/**
 * The distributed hub as deployed: each service and gateway replica a built app of its own
 * (`node dist/apps/<app>/main.js`) on an authenticated NATS of this file's own (decision 0013)
 * and a fresh database. `start()` in beforeAll, `stop()` in afterAll: it stops whatever was
 * started, even when `start()` failed or is still waiting.
 */
export class DistributedHub {
  private natsHandle?: AuthenticatedNats;
  private dbHandle?: TestDatabase;
  private commonEnv: Env = {};
  private readonly byApp = new Map<string, HubProcess[]>();
  private readonly running = new Set<RunningProcess>();
  private stopped = false;

  constructor(private readonly options: DistributedHubOptions) {}

  get nats(): AuthenticatedNats {
    if (!this.natsHandle) throw new Error('the distributed hub is not started');
    return this.natsHandle;
  }

  get db(): TestDatabase {
    if (!this.dbHandle) throw new Error('the distributed hub is not started');
    return this.dbHandle;
  }

  /** The gateway replicas' base URLs, in the order of `gateways`. */
  get gateways(): string[] {
    return this.processes('gateway').map((p) => p.url);
  }

  /** What every process of `app` gets (without its per-service variables or PORT): for a one-off start. */
  envFor(app: string): Env {
    return { ...this.commonEnv, ...this.nats.env(app) };
  }

  processes(app: string): HubProcess[] {
    return this.byApp.get(app) ?? [];
  }

  process(app: string, replica = 0): HubProcess {
    const p = this.processes(app)[replica];
    if (!p) throw new Error(`no ${app} process #${replica}`);
    return p;
  }

  async start(): Promise<void> {
    const o = this.options;
    [this.natsHandle, this.dbHandle] = await Promise.all([AuthenticatedNats.start(), createTestDatabase()]);
    this.commonEnv = {
      DATABASE_URL: this.db.url,
      // The jest setup gives each file its own prefix: nobody else answers its subjects.
      HUB_BUS_PREFIX: process.env['HUB_BUS_PREFIX'] ?? o.busPrefix,
      HUB_ADMIN_TOKEN: o.adminToken,
      HOST: '127.0.0.1',
      ...(typeof o.env === 'function' ? o.env() : (o.env ?? {})),
    };
    await this.migrate();
    const gateways = typeof o.gateways === 'number' || o.gateways === undefined ? (o.gateways ?? 1) : o.gateways;
    const plan: { app: string; env: Env }[] = [
      ...o.services.flatMap((app) =>
        Array.from({ length: o.replicas?.[app] ?? 1 }, () => ({ app, env: o.serviceEnv?.[app] ?? {} })),
      ),
      ...(typeof gateways === 'number' ? Array.from({ length: gateways }, () => ({})) : gateways).map((env) => ({
        app: 'gateway',
        env,
      })),
    ];
    const ports = await this.ports(plan.length);
    const started = plan.map(({ app, env }, i) => this.launch(app, ports[i], { ...env }));
    await Promise.all(started.map((p) => this.ready(p)));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.running].map((p) => p.stop()));
    await this.dbHandle?.drop();
    await this.natsHandle?.stop();
  }

  /** Each service's one-shot `migrate` (each owns its schema), before any process starts. */
  private async migrate(): Promise<void> {
    const run = async (app: string): Promise<{ app: string; code: number | null; output: string }> => {
      const p = this.spawn(app, this.commonEnv, ['migrate']);
      await new Promise<void>((r) => (p.child.exitCode !== null ? r() : p.child.once('exit', () => r())));
      this.running.delete(p);
      return { app, code: p.child.exitCode, output: p.child.exitCode === 0 ? '' : p.output() };
    };
    const { services, parallelMigrations } = this.options;
    const results = [];
    if (parallelMigrations) results.push(...(await Promise.all(services.map(run))));
    else
      for (const app of services) {
        results.push(await run(app));
        if (results[results.length - 1].code !== 0) break;
      }
    expect(results).toEqual(services.slice(0, results.length).map((app) => ({ app, code: 0, output: '' })));
  }

  /** Distinct ports for every process, chosen before any starts (a booting app does not hold its port yet). */
  private async ports(count: number): Promise<number[]> {
    const pick = this.options.port ?? freePort;
    const ports = new Set<number>();
    while (ports.size < count) ports.add(await pick());
    return [...ports];
  }

  private spawn(app: string, env: Env, args: string[] = []): RunningProcess {
    if (this.stopped) throw new Error('the distributed hub was stopped');
    const p = startApp(app, env, args);
    this.running.add(p);
    return p;
  }

  private launch(app: string, port: number, own: Env): HubProcess {
    const env = { ...this.envFor(app), ...own, PORT: String(port) };
    let proc = this.spawn(app, env);
    const handle: HubProcess = {
      app,
      port,
      url: `http://127.0.0.1:${port}`,
      env,
      get proc() {
        return proc;
      },
      stop: (signal) => proc.stop(signal),
      restart: async () => {
        await proc.stop();
        this.running.delete(proc);
        proc = this.spawn(app, env);
        await this.ready(handle);
      },
    };
    this.byApp.set(app, [...this.processes(app), handle]);
    return handle;
  }

  private ready(p: HubProcess): Promise<void> {
    // Generous: up to seven Node processes boot at once on a loaded 2-core machine.
    return p.proc.waitForReady(`${p.url}/health/ready`, this.options.readyTimeoutMs ?? 300_000);
  }
}
