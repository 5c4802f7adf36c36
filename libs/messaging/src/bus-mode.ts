import { type InProcessBroker } from './in-process/in-process-broker';

/** How an app reaches the others: NATS (distributed) or in-process (all-in-one). */
export type BusMode =
  | { kind: 'nats'; url: string }
  | { kind: 'in-process'; broker: InProcessBroker };
