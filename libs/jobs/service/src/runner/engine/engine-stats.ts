import { type ProcSample } from '../proc-sample';

/** The parts of `GET /containers/{id}/stats` (Docker, and Podman's compatible API) a sample needs. */
export interface EngineStats {
  cpu_stats?: { cpu_usage?: { total_usage?: number } };
  memory_stats?: { usage?: number; limit?: number; stats?: Record<string, number> };
  networks?: Record<string, { rx_bytes?: number; tx_bytes?: number }>;
}

/** An engine limit that is really "none" (cgroup v1 answers ~2^63). */
const NO_LIMIT = 2 ** 60;

/**
 * A sample from the engine's stats of a container (all its processes): CPU time, memory in use
 * without the reclaimable page cache (as `docker stats` counts it: inactive file pages out), its
 * memory limit, and the traffic of its interfaces. Null when the answer has no CPU figure (a
 * container that is not running).
 */
export function fromEngineStats(s: EngineStats, at: number): ProcSample | null {
  const ns = s.cpu_stats?.cpu_usage?.total_usage;
  if (typeof ns !== 'number') return null;
  const m = s.memory_stats ?? {};
  const cache = m.stats?.['total_inactive_file'] ?? m.stats?.['inactive_file'] ?? 0;
  let rx = 0;
  let tx = 0;
  for (const n of Object.values(s.networks ?? {})) {
    rx += n.rx_bytes ?? 0;
    tx += n.tx_bytes ?? 0;
  }
  return {
    cpuTicks: ns / 1e7,
    rssBytes: Math.max(0, (m.usage ?? 0) - cache),
    at,
    net: { rx, tx },
    ...(m.limit && m.limit < NO_LIMIT ? { memoryLimitBytes: m.limit } : {}),
  };
}
