import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@hub/testing';
import { docker, PROJECT } from './compose-stack';

export interface Delivery {
  id: string;
  action: string;
  scope: string;
}

/**
 * A webhook receiver in its own container on the stack's network (docker/local/receiver): the
 * webhooks containers reach it by name, the test reads what it got through a loopback port.
 */
export class ReceiverContainer {
  static readonly NAME = `${PROJECT}-receiver`;
  private constructor(private readonly port: number) {}

  static async start(network: string, image = 'hub-deploy/node:20-bookworm-slim'): Promise<ReceiverContainer> {
    await docker('rm', '-f', ReceiverContainer.NAME).catch(() => undefined);
    await docker(
      'run', '-d', '--name', ReceiverContainer.NAME, '--network', network, '--network-alias', 'receiver',
      '-p', '127.0.0.1::8090', '-v', `${join(WORKSPACE_ROOT, 'docker/local/receiver')}:/srv:ro`,
      '--user', 'node', image, 'node', '/srv/receiver.mjs',
    ); // prettier-ignore
    const mapped = await docker('port', ReceiverContainer.NAME, '8090/tcp');
    const port = Number(/:(\d+)\s*$/m.exec(mapped)?.[1]);
    const receiver = new ReceiverContainer(port);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/_health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return receiver;
      if (Date.now() > deadline) throw new Error(`the receiver container did not answer on ${port}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** The URL the webhooks containers deliver to. */
  url(path: string): string {
    return `http://${ReceiverContainer.NAME}:8090${path}`;
  }

  async deliveries(path: string): Promise<Delivery[]> {
    const res = await fetch(`http://127.0.0.1:${this.port}/_deliveries?path=${encodeURIComponent(path)}`);
    return (await res.json()) as Delivery[];
  }

  static async stop(): Promise<void> {
    await docker('rm', '-f', ReceiverContainer.NAME).catch(() => undefined);
  }
}
