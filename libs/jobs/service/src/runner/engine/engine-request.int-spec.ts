import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { describeWithInfra } from '@hub/testing';
import { connectEngine, type Engine, type EngineKind } from './engine-connect';
import { imageExists } from './engine-request';

const SOCKETS: Record<EngineKind, string> = { docker: '/var/run/docker.sock', podman: '/run/podman/podman.sock' };

/** A TCP listener on loopback that counts the connections it gets (the SSRF target of issue 35). */
async function listener(): Promise<{ server: Server; port: number; connections: () => number }> {
  let count = 0;
  const server = createServer((s) => {
    count++;
    s.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port, connections: () => count };
}

for (const kind of ['docker', 'podman'] as const) {
  // Under HUB_TEST_REQUIRE_INFRA=1 both engines must answer.
  const run =
    existsSync(SOCKETS[kind]) || process.env['HUB_TEST_REQUIRE_INFRA'] === '1' ? describeWithInfra : describe.skip;

  run(`image lookups against the ${kind} engine`, () => {
    let engine: Engine;

    beforeAll(async () => {
      engine = (await connectEngine(kind, SOCKETS[kind])) as Engine;
    });

    it('a name the engine answers with a redirect is an error, and nothing connects where the redirect points', async () => {
      const target = await listener();
      try {
        // What the create DTO now refuses: sent here anyway, as a runner fed a stored spec would.
        const ref = `../../127.0.0.1:${target.port}/q?x=1&y=:latest`;
        await expect(imageExists(engine, ref)).rejects.toThrow(/the engine answered \d+ to an image lookup/);
        await expect(imageExists(engine, '../../etc/passwd:latest')).rejects.toThrow(/the engine answered/);
        expect(target.connections()).toBe(0);
      } finally {
        target.server.close();
      }
    });

    it('answers false for a missing image and true for one the engine has', async () => {
      expect(await imageExists(engine, 'hub-jobs-engine/no-such-image:1')).toBe(false);
      const [any] = await engine.api.listImages();
      const tag = any?.RepoTags?.find((t) => t !== '<none>:<none>');
      if (tag) expect(await imageExists(engine, tag)).toBe(true);
    });
  });
}
