import { type NatsConnection } from 'nats';

interface Outgoing {
  subject: string;
  payload: string | Uint8Array;
  reply?: string;
  onError?: (error: unknown) => void;
}

/**
 * Publishes of one event-loop turn go out in one socket write. nats.js writes once per microtask
 * checkpoint, and each HTTP request (gateway) or query result (service) arrives in its own I/O
 * callback, so every request and every reply was a write of its own: on loopback a write also
 * runs the receiver's TCP path, and those writes were about a third of the gateway's and the
 * services' CPU profile (bench:gateway, members read). Handing them to nats.js together in the
 * check phase (setImmediate, still in the same loop iteration) batches them; under no load it
 * adds one hop of the event loop.
 */
export class PublishQueue {
  private queue: Outgoing[] = [];
  private scheduled = false;

  constructor(private readonly nc: NatsConnection) {}

  publish(message: Outgoing): void {
    this.queue.push(message);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    for (const m of batch) {
      try {
        this.nc.publish(m.subject, m.payload, m.reply ? { reply: m.reply } : undefined);
      } catch (error) {
        m.onError?.(error);
      }
    }
  };
}

const queues = new WeakMap<NatsConnection, PublishQueue>();

/** One queue per connection, shared by the app's RPC client and server. */
export function publishQueueFor(nc: NatsConnection): PublishQueue {
  let queue = queues.get(nc);
  if (!queue) {
    queue = new PublishQueue(nc);
    queues.set(nc, queue);
  }
  return queue;
}
