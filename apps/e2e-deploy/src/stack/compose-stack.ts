import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { WORKSPACE_ROOT } from '@hub/testing';

const run = promisify(execFile);

/** Every container, network and volume the deploy test makes is named after this project. */
export const PROJECT = process.env['HUB_DEPLOY_PROJECT'] ?? 'hub-deploy-stack';
/** The tag `npm run test:deploy` gave the hub-services/* images it built. */
export const IMAGE_TAG = process.env['HUB_IMAGE_TAG'] ?? 'hub-deploy-test';
export const COMPOSE_FILE = join(WORKSPACE_ROOT, 'docker/docker-compose.yml');
/** Jobs in containers of the machine's engine: the override a user adds for that (decision 0615). */
export const ENGINE_FILE = join(WORKSPACE_ROOT, 'docker/docker-compose.engine.yml');
const DOCKER = process.env['HUB_DOCKER'] ?? '/usr/bin/docker';
const COMPOSE = process.env['HUB_COMPOSE'] ?? 'docker-compose';

function composeEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'DOCKER_HOST', 'DOCKER_CONFIG', 'TMPDIR', 'LANG'];
  const env: NodeJS.ProcessEnv = { COMPOSE_PROJECT_NAME: PROJECT };
  for (const k of keep) if (process.env[k] !== undefined) env[k] = process.env[k];
  return env;
}

export const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function docker(...args: string[]): Promise<string> {
  const { stdout } = await run(DOCKER, args, { maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

/**
 * The stack as a user runs it: docker/docker-compose.yml unchanged, an env file with fresh secrets,
 * the local stand-ins of the third-party images, and the settings this test needs to drive it
 * (a receiver on the compose network, 1,000 events at once, short retries).
 */
export class ComposeStack {
  readonly adminToken = `hub-deploy-${randomBytes(16).toString('hex')}`;
  readonly envFile = join(tmpdir(), `${PROJECT}.env`);
  /**
   * The compose files and the images' tag `compose()` uses: the upgrade test starts on the previous
   * release's files and images, then switches both to this tree's, one service at a time.
   */
  files = [COMPOSE_FILE, ENGINE_FILE];
  imageTag = IMAGE_TAG;

  constructor(
    readonly gatewayPort: number,
    readonly mailPort: number,
  ) {
    const nats = ['GATEWAY', 'CREDENTIALS', 'ORGANIZATIONS', 'NOTIFICATIONS', 'WEBHOOKS', 'JOBS', 'HUB', 'SUBSCRIBER'];
    const lines = [
      `COMPOSE_PROJECT_NAME=${PROJECT}`,
      `HUB_ADMIN_TOKEN=${this.adminToken}`,
      `HUB_SECRET_KEY=${randomBytes(32).toString('base64')}`,
      ...nats.map((u) => `NATS_PASSWORD_${u}=p${randomBytes(24).toString('hex')}`),
      `HUB_IMAGE_TAG=${IMAGE_TAG}`,
      `DOCKER_GID=${statSync('/var/run/docker.sock').gid}`,
      `HUB_POSTGRES_IMAGE=hub-deploy/postgres:15`,
      `HUB_NATS_IMAGE=hub-deploy/nats:2`,
      `HUB_MAIL_IMAGE=hub-deploy/mailpit:local`,
      `HUB_PORT=${gatewayPort}`,
      `HUB_MAIL_UI_PORT=${mailPort}`,
      `HUB_PUBLIC_URL=http://127.0.0.1:${gatewayPort}`,
      // The receiver container has a private address on the compose network.
      `HUB_WEBHOOK_ALLOWED_NETWORKS=10.0.0.0/8,172.16.0.0/12,192.168.0.0/16`,
      `HUB_WEBHOOK_RETRY_SCHEDULE=0,1,2,3,5,5,5,5`,
      `HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY=100000`,
      `HUB_RATE_LIMIT_PER_MINUTE=100000`,
      `HUB_RPC_TIMEOUT_MS=15000`,
      `LOG_LEVEL=warn`,
    ];
    writeFileSync(this.envFile, `${lines.join('\n')}\n`, { mode: 0o600 });
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.gatewayPort}`;
  }

  get network(): string {
    return `${PROJECT}_default`;
  }

  /** docker-compose with this project's file, name and env file. */
  async compose(...args: string[]): Promise<string> {
    const { stdout, stderr } = await run(
      COMPOSE,
      ['-p', PROJECT, ...this.files.flatMap((f) => ['-f', f]), '--env-file', this.envFile, ...args],
      // Only what compose needs: the test process's own variables (its HUB_BUS_PREFIX, DATABASE_URL, …)
      // would override the env file's in the compose file's interpolation (the images' tag does, on purpose).
      { maxBuffer: 64 * 1024 * 1024, env: { ...composeEnv(), HUB_IMAGE_TAG: this.imageTag } },
    ).catch((e: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`${COMPOSE} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    });
    return `${stdout}${stderr}`.trim();
  }

  /** Ids of the running containers of one service. */
  async containers(service: string): Promise<string[]> {
    const out = await docker(
      'ps',
      '-q',
      '--filter',
      `label=com.docker.compose.project=${PROJECT}`,
      '--filter',
      `label=com.docker.compose.service=${service}`,
      '--filter',
      'status=running',
    );
    return out ? out.split('\n') : [];
  }

  /** Health of every container of a service (healthy | starting | unhealthy | none). */
  async health(service: string): Promise<string[]> {
    const ids = await this.containers(service);
    return Promise.all(
      ids.map((id) => docker('inspect', '-f', '{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}', id)),
    );
  }

  /** Polls until `count` containers of the service run and report healthy. */
  async waitHealthy(service: string, count = 1, timeoutMs = 300_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last: string[] = [];
    while (Date.now() < deadline) {
      last = await this.health(service);
      if (last.filter((h) => h === 'healthy').length >= count) return;
      await pause(1000);
    }
    throw new Error(
      `${service}: ${count} healthy container(s) expected, got [${last.join(', ')}] after ${timeoutMs} ms`,
    );
  }

  /** The gateway answers /health/ready (its services answer over NATS, Postgres is up). */
  async waitReady(timeoutMs = 300_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      try {
        const res = await fetch(`${this.baseUrl}/health/ready`, { signal: AbortSignal.timeout(5000) });
        if (res.ok) return;
        last = `${res.status} ${await res.text()}`;
      } catch (e) {
        last = (e as Error).message;
      }
      await pause(1000);
    }
    throw new Error(`gateway not ready after ${timeoutMs} ms: ${last}`);
  }

  /** kill -9 of a container's main process from the host (a crash: the restart policy applies). */
  async killNine(id: string): Promise<void> {
    const pid = await docker('inspect', '-f', '{{.State.Pid}}', id);
    process.kill(Number(pid), 'SIGKILL');
  }

  /** Logs of the whole stack, for a failing run's diagnosis. */
  async logs(tail = 80): Promise<string> {
    return this.compose('logs', '--no-color', `--tail=${tail}`).catch((e: Error) => e.message);
  }

  async down(): Promise<void> {
    await this.compose('down', '-v', '--remove-orphans', '-t', '5').catch(() => undefined);
  }
}
