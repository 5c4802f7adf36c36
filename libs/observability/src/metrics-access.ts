import { type HubConfig } from '@hub/config';

/** Where /metrics is served and who may read it. */
export interface MetricsAccess {
  /** A separate listener serving only /metrics (no token: keep the port private). */
  port?: number;
  host: string;
  /** Bearer token /metrics on the main port requires. */
  token?: string;
  /** Whether /metrics answers on the main port at all. */
  onMainPort: boolean;
}

/**
 * /metrics is never public on an API port: with HUB_METRICS_PORT it moves to that port; else
 * with HUB_METRICS_TOKEN it needs that bearer token; else an API app (gateway, hub) does not
 * serve it, and a service serves it on its PORT, which carries only health and metrics.
 */
export function metricsAccess(config: HubConfig, apiPort: boolean): MetricsAccess {
  if (config.HUB_METRICS_PORT !== undefined)
    return { port: config.HUB_METRICS_PORT, host: config.HOST, onMainPort: false };
  if (config.HUB_METRICS_TOKEN) return { token: config.HUB_METRICS_TOKEN, host: config.HOST, onMainPort: true };
  return { host: config.HOST, onMainPort: !apiPort };
}

export const METRICS_ACCESS = Symbol('METRICS_ACCESS');
