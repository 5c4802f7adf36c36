import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';

/**
 * Runs a container health-check command (`node -e <script>`) against a stub server that
 * answers `status` to everything, and reports the exit code and the paths it asked for.
 * The script finds the stub through PORT, as it finds the app in the container.
 */
export async function runProbe(args: string[], status: number): Promise<{ code: number | null; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  try {
    const [cmd, ...rest] = args;
    if (cmd !== 'node') throw new Error(`health check runs ${cmd}, not node (the slim image has no curl)`);
    const child = spawn(process.execPath, rest, {
      env: { PATH: process.env['PATH'] ?? '', PORT: String(port) },
      stdio: 'ignore',
    });
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    return { code, paths };
  } finally {
    await new Promise((r) => server.close(r));
  }
}
