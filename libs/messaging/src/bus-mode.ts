import { InProcessBroker } from './in-process/in-process-broker';

/** How an app reaches the others: NATS (distributed) or in-process (all-in-one). */
export type BusMode =
  | { kind: 'nats'; url: string }
  | { kind: 'in-process'; broker: InProcessBroker };

/** The bus mode that config describes: NATS when NATS_URL is set. */
export function busModeFrom(natsUrl: string | undefined, broker = new InProcessBroker()): BusMode {
  return natsUrl ? { kind: 'nats', url: natsUrl } : { kind: 'in-process', broker };
}
