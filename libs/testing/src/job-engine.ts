import { existsSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';

/**
 * The image the jobs tests run (`alpine:3` in every scenario). No registry is reachable where the
 * tests run, so when the engine has no such image a stand-in is built locally: `FROM scratch` with
 * Debian's static busybox (`sh`, `sleep`, `nc`, `ps`… as in Alpine). A real alpine:3 works the same.
 */
export const TEST_JOB_IMAGE = 'alpine:3';
const BUSYBOX = ['/usr/bin/busybox', '/bin/busybox'];

/** The engine socket the tests use: HUB_TEST_ENGINE_SOCKET, else Docker's, else rootful Podman's. */
export function engineSocketForTests(): string | null {
  const candidates = [process.env['HUB_TEST_ENGINE_SOCKET'], '/var/run/docker.sock', '/run/podman/podman.sock'];
  return candidates.find((s): s is string => !!s && existsSync(s)) ?? null;
}

/** Set by the jest global setup: '1' when a container engine answered (and has the test image). */
export function engineAvailable(): boolean {
  return process.env['HUB_TEST_ENGINE'] === '1';
}

/** Builds the test image unless the engine has it (cached by tag: later runs take a few ms). */
export async function ensureTestJobImage(socket: string): Promise<void> {
  const api = new Docker({ socketPath: socket });
  await api.ping();
  const has = await api
    .getImage(TEST_JOB_IMAGE)
    .inspect()
    .then(() => true)
    .catch(() => false);
  if (has) return;
  const busybox = BUSYBOX.find((p) => existsSync(p));
  if (!busybox) throw new Error(`no static busybox to build ${TEST_JOB_IMAGE} from: apt-get install busybox-static`);
  const dir = mkdtempSync(join(tmpdir(), 'hub-test-image-'));
  try {
    copyFileSync(busybox, join(dir, 'busybox'));
    writeFileSync(
      join(dir, 'Dockerfile'),
      'FROM scratch\nCOPY busybox /bin/busybox\nRUN ["/bin/busybox", "--install", "-s", "/bin"]\nCMD ["sh"]\n',
    );
    const stream = await api.buildImage({ context: dir, src: ['Dockerfile', 'busybox'] }, { t: TEST_JOB_IMAGE });
    await new Promise<void>((resolve, reject) =>
      api.modem.followProgress(stream, (err: Error | null, out: { error?: string }[]) => {
        const failed = err?.message ?? out.find((o) => o.error)?.error;
        if (failed) reject(new Error(`building ${TEST_JOB_IMAGE}: ${failed}`));
        else resolve();
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `describe` for suites that need a container engine (and Postgres and NATS): skipped without
 * one, except under HUB_TEST_REQUIRE_INFRA=1, where the suite fails saying what is missing.
 */
export const describeWithEngine = ((name: string, fn: () => void) => {
  if (process.env['HUB_TEST_INFRA'] === '1' && engineAvailable()) return describe(name, fn);
  if (process.env['HUB_TEST_REQUIRE_INFRA'] === '1')
    return describe(name, () =>
      it('needs a container engine', () => {
        throw new Error(
          'HUB_TEST_REQUIRE_INFRA=1 but no Docker or Podman engine answered (start dockerd: .ci/engine-up.sh)',
        );
      }),
    );
  return describe.skip(name, fn);
}) as (name: string, fn: () => void) => void;
