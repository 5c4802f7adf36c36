import { InProcessBroker } from './in-process/in-process-broker';

/** The NATS user an app connects as (decision 0013); absent only outside production. */
export interface NatsCredentials {
  user: string;
  password: string;
}

/** How an app reaches the others: NATS (distributed) or in-process (all-in-one). */
export type BusMode =
  { kind: 'nats'; url: string; credentials?: NatsCredentials } | { kind: 'in-process'; broker: InProcessBroker };

/** What busModeFrom reads of an app's config (HubConfig). */
export interface BusSettings {
  NATS_URL?: string;
  NATS_USER?: string;
  NATS_PASSWORD?: string;
  NODE_ENV?: string;
}

/**
 * The bus mode that config describes: NATS when NATS_URL is set, as NATS_USER. In production
 * (NODE_ENV=production, which the images set) an app refuses to connect without credentials:
 * the hub's NATS lets no anonymous client in, and one that did would reach every RPC.
 */
export function busModeFrom(settings: BusSettings | string | undefined, broker = new InProcessBroker()): BusMode {
  const s: BusSettings = typeof settings === 'string' || settings === undefined ? { NATS_URL: settings } : settings;
  if (!s.NATS_URL) return { kind: 'in-process', broker };
  const missing = [!s.NATS_USER && 'NATS_USER', !s.NATS_PASSWORD && 'NATS_PASSWORD'].filter(Boolean);
  if (missing.length > 0 && (missing.length < 2 || s.NODE_ENV === 'production')) {
    throw new Error(
      `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} required with NATS_URL${s.NODE_ENV === 'production' ? ' in production (NODE_ENV=production)' : ''}: this app's NATS user and password (docker/README.md, k8s/README.md)`,
    );
  }
  const credentials = s.NATS_USER && s.NATS_PASSWORD ? { user: s.NATS_USER, password: s.NATS_PASSWORD } : undefined;
  return { kind: 'nats', url: s.NATS_URL, credentials };
}
