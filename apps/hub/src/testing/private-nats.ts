import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, portOpen } from '@hub/testing';

/** A nats-server of the test's own (port and JetStream directory), to stop and start again. */
export class PrivateNats {
  private child: ChildProcess | null = null;
  readonly storeDir = mkdtempSync(join(tmpdir(), 'hub-nats-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateNats> {
    const nats = new PrivateNats(await freePort());
    await nats.up();
    return nats;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts the server on the same port and directory (JetStream keeps its streams there). */
  async up(): Promise<void> {
    this.child = spawn(
      '/usr/sbin/nats-server',
      ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 10_000;
    while (!(await portOpen('127.0.0.1', this.port, 200))) {
      if (Date.now() > deadline) throw new Error(`nats-server did not listen on ${this.port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** kill -9: the server vanishes mid-whatever, as a crash or a network cut would look. */
  async down(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
}
