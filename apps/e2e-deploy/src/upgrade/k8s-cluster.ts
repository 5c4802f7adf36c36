import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { freePort, waitForHttp, WORKSPACE_ROOT } from '@hub/testing';
import type { Delivery } from '../stack/receiver';
import type { Receiver } from './scenario';
import { linesNaming } from './traffic';

/** `kubectl ARGS` (stdin from `input`), its output; rejects with its stderr. */
export function kubectl(args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('kubectl', args, { maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      err ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout.trim()),
    );
    child.stdin?.end(input ?? '');
  });
}

interface Endpoints {
  subsets?: { addresses?: { ip: string }[]; ports?: { port: number }[] }[];
}

/**
 * What kube-proxy does for a Service, which the test's node lacks (no kube-proxy, no cluster DNS:
 * ../shared/infra/README.md trap 9): a local port whose connections go to the Service's ready
 * endpoints, re-read every 500 ms, round robin. A pod leaves the endpoints when it is not Ready or
 * is terminating, exactly the list kube-proxy programs, so a rolling update is seen as a client
 * behind a Service sees it. No ready endpoint: 503; an endpoint that refuses or cuts: 502.
 */
export class ServiceProxy {
  private targets: string[] = [];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private constructor(
    private readonly server: Server,
    private readonly ns: string,
    private readonly service: string,
  ) {}

  static async start(ns: string, service: string): Promise<ServiceProxy> {
    const server = createServer();
    const proxy = new ServiceProxy(server, ns, service);
    await proxy.refresh();
    server.on('request', (req, res) => {
      const target = proxy.pick();
      if (!target) {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end(`no ready endpoint for service ${service}`);
        return;
      }
      const [host, port] = target.split(':');
      const up = request({ host, port: Number(port), method: req.method, path: req.url, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', (e) => {
        if (res.headersSent) res.destroy();
        else {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`endpoint ${target}: ${e.message}`);
        }
      });
      req.pipe(up);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const loop = async (): Promise<void> => {
      await proxy.refresh().catch(() => undefined);
      if (!proxy.stopped) proxy.timer = setTimeout(() => void loop(), 500);
    };
    proxy.timer = setTimeout(() => void loop(), 500);
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private pick(): string | undefined {
    if (this.targets.length === 0) return undefined;
    return this.targets[this.next++ % this.targets.length];
  }

  private async refresh(): Promise<void> {
    const ep = JSON.parse(await kubectl(['-n', this.ns, 'get', 'endpoints', this.service, '-o', 'json'])) as Endpoints;
    this.targets = (ep.subsets ?? []).flatMap((s) =>
      (s.addresses ?? []).flatMap((a) => (s.ports ?? []).map((p) => `${a.ip}:${p.port}`)),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * The webhook receiver (docker/local/receiver) as a process on the host: the webhooks pods reach
 * it at the node's address (the namespace's HUB_WEBHOOK_ALLOWED_NETWORKS lets them).
 */
export class HostReceiver implements Receiver {
  private constructor(
    private readonly proc: ChildProcess,
    private readonly host: string,
    private readonly port: number,
  ) {}

  static async start(host: string): Promise<HostReceiver> {
    const port = await freePort();
    const proc = spawn(process.execPath, [join(WORKSPACE_ROOT, 'docker/local/receiver/receiver.mjs')], {
      env: { ...process.env, PORT: String(port) },
      stdio: 'inherit',
    });
    const receiver = new HostReceiver(proc, host, port);
    await waitForHttp(`http://127.0.0.1:${port}/_health`, 30_000, () => {
      if (proc.exitCode !== null) throw new Error(`the receiver exited (${proc.exitCode}) before answering on ${port}`);
    });
    return receiver;
  }

  url(path: string): string {
    return `http://${this.host}:${this.port}${path}`;
  }

  async deliveries(path: string): Promise<Delivery[]> {
    const res = await fetch(`http://127.0.0.1:${this.port}/_deliveries?path=${encodeURIComponent(path)}`);
    return (await res.json()) as Delivery[];
  }

  stop(): void {
    this.proc.kill();
  }
}

/**
 * The logs of a service's pods as they are when it starts (the replicas about to be replaced),
 * followed until those pods stop and kept after they are gone (`kubectl logs -f`, from a few
 * seconds before the start).
 */
export class FollowedLogs {
  private text = '';

  private constructor(
    readonly service: string,
    private readonly proc: ChildProcess,
  ) {
    proc.stdout?.on('data', (d: Buffer) => (this.text += d.toString('utf8')));
    let err = '';
    proc.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
    // Its end is the pods' end (exit 0); anything else is said, or the lines would be missing unseen.
    proc.once('exit', (code, signal) => {
      if (code) console.log(`kubectl logs -f of the ${service} replicas exited ${code}: ${err.slice(0, 500)}`);
      else if (signal === null && this.text === '')
        console.log(`the ${service} replicas being replaced logged nothing in their last seconds`);
    });
  }

  static start(ns: string, service: string): FollowedLogs {
    const args = ['-n', ns, 'logs', '-f', '-l', `app.kubernetes.io/name=${service}`, '--all-containers', '--prefix'];
    return new FollowedLogs(
      service,
      spawn('kubectl', [...args, '--since=5s', '--max-log-requests=10'], { stdio: ['ignore', 'pipe', 'pipe'] }),
    );
  }

  /** The lines that name `needle`. */
  linesNaming(needle: string): string[] {
    return linesNaming(this.text, needle);
  }

  stop(): void {
    this.proc.kill();
  }
}
