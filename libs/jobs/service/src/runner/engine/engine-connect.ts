import { existsSync } from 'node:fs';
import Docker from 'dockerode';

export type EngineKind = 'docker' | 'podman';

export interface Engine {
  kind: EngineKind;
  /** Where its API answers (for messages). */
  socket: string;
  api: Docker;
  /** What the engine's host can give one container. */
  cpus: number;
  memoryBytes: number;
}

const DEFAULT_SOCKETS: Record<EngineKind, string[]> = {
  docker: ['/var/run/docker.sock'],
  podman: [
    '/run/podman/podman.sock',
    ...(process.env['XDG_RUNTIME_DIR'] ? [`${process.env['XDG_RUNTIME_DIR']}/podman/podman.sock`] : []),
  ],
};

/** dockerode options for a socket path or a unix:// / tcp:// / http:// address. */
function apiFor(address: string): Docker {
  if (address.startsWith('/')) return new Docker({ socketPath: address });
  const url = new URL(address);
  if (url.protocol === 'unix:') return new Docker({ socketPath: url.pathname });
  return new Docker({
    host: url.hostname,
    port: Number(url.port || 2375),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
  });
}

/** The engine answering at `address`, or null (no answer within a few seconds). */
async function probe(kind: EngineKind, address: string): Promise<Engine | null> {
  if (address.startsWith('/') && !existsSync(address)) return null;
  const api = apiFor(address);
  try {
    const info = (await Promise.race([
      api.info(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer')), 5000).unref()),
    ])) as { NCPU?: number; MemTotal?: number; Name?: string };
    const version = (await api.version()) as { Components?: { Name: string }[] };
    // A Podman socket answers Docker's API too; its version lists a "Podman Engine" component.
    const isPodman = version.Components?.some((c) => /podman/i.test(c.Name)) ?? false;
    return {
      kind: isPodman ? 'podman' : kind,
      socket: address,
      api,
      cpus: info.NCPU ?? 1,
      memoryBytes: info.MemTotal ?? 0,
    };
  } catch {
    return null;
  }
}

/**
 * The engine HUB_JOBS_ENGINE names: `docker` / `podman` must answer (else the error says where it
 * looked), `auto` takes Docker's socket, else Podman's, else null (host), `host` is null.
 */
export async function connectEngine(choice: string, socket: string | undefined): Promise<Engine | null> {
  if (choice === 'host') return null;
  const explicit = socket ?? process.env['DOCKER_HOST'];
  const kinds: EngineKind[] =
    choice === 'podman' ? ['podman'] : choice === 'docker' ? ['docker'] : ['docker', 'podman'];
  const tried: string[] = [];
  for (const kind of kinds) {
    for (const address of explicit ? [explicit] : DEFAULT_SOCKETS[kind]) {
      tried.push(address);
      const engine = await probe(kind, address);
      if (engine) return engine;
    }
    if (explicit) break;
  }
  if (choice === 'auto') return null;
  throw new Error(`HUB_JOBS_ENGINE=${choice}: no engine answered at ${[...new Set(tried)].join(', ')}`);
}
