import { createInbox, type Msg, type NatsConnection } from 'nats';
import { type RequestContext, type RpcDescriptor } from '@hub/contracts';
import { RpcClient, type RpcCallOptions } from './rpc-client';
import { toHubError } from './rpc-errors';
import { type PublishQueue, publishQueueFor } from './publish-queue';
import { decodeReply, encodeRequest } from './rpc-wire';
import { currentTraceparent } from '../tracing/trace-context';

interface Pending {
  resolve: (raw: Uint8Array) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

/**
 * RPC over NATS request/reply with our own wire format (rpc-wire.ts), served by RpcServer.
 * Replies come to one wildcard inbox subscription per service answering, matched by a token, as nats.js `request`
 * does, but without its cost: it builds and throws away a NatsError (with a stack trace) on every
 * successful request (RequestOne.resolver calls cancel()), a few percent of the gateway's CPU on
 * an RPC-bound route (bench:gateway profile). Requests of one event-loop turn share a socket
 * write (PublishQueue). "No responders" arrives as a 503 status message at
 * once; no reply within the timeout is a 504. No headers: the request id travels in the context.
 */
export class NatsRpcClient extends RpcClient {
  /** Reply inboxes by the service answering (one when the connection has no user's prefix). */
  private readonly inboxes = new Map<string, string>();
  private readonly pending = new Map<string, Pending>();
  private next = 0;
  private readonly queue: PublishQueue;

  constructor(
    private readonly nc: NatsConnection,
    private readonly defaultTimeoutMs: number,
    /** The connection's `inboxPrefix`: the only inbox its NATS user may subscribe to (decision 0013). */
    private readonly inboxPrefix?: string,
    /**
     * The service answering a subject: its replies come to `<inboxPrefix>.<service>.…`, the only
     * part of this user's inbox that service may publish into (decision 0703).
     */
    private readonly serviceOf: (subject: string) => string | undefined = () => undefined,
  ) {
    super();
    this.queue = publishQueueFor(nc);
  }

  async call<Req, Res>(
    rpc: RpcDescriptor<Req, Res>,
    data: Req,
    ctx: RequestContext,
    options?: RpcCallOptions,
  ): Promise<Res> {
    const subject = rpc.subject;
    // The caller's span travels in the context (no headers on this wire): the server continues its trace.
    const traceparent = currentTraceparent();
    const payload = encodeRequest(data, traceparent ? { ...ctx, traceparent } : ctx);
    const raw = await new Promise<Uint8Array>((resolve, reject) => {
      const token = (this.next++).toString(36);
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject({ code: 'TIMEOUT' });
      }, options?.timeoutMs ?? this.defaultTimeoutMs);
      const fail = (error: unknown): void => {
        clearTimeout(timer);
        this.pending.delete(token);
        reject(error);
      };
      this.pending.set(token, { resolve, reject, timer });
      try {
        this.queue.publish({ subject, payload, reply: `${this.inboxFor(subject)}.${token}`, onError: fail });
      } catch (error) {
        fail(error);
      }
    }).catch((error: unknown) => {
      throw toHubError(error, subject);
    });
    return decodeReply<Res>(raw, subject);
  }

  /** The reply inbox of a subject's service, subscribed on first use (the connection may be shared with apps that never call). */
  private inboxFor(subject: string): string {
    const service = (this.inboxPrefix && this.serviceOf(subject)) || '';
    const known = this.inboxes.get(service);
    if (known) return known;
    const inbox = createInbox(service ? `${this.inboxPrefix}.${service}` : this.inboxPrefix);
    const prefix = inbox.length + 1;
    this.nc.subscribe(`${inbox}.*`, {
      callback: (err, msg: Msg) => {
        if (err) return;
        const token = msg.subject.slice(prefix);
        const call = this.pending.get(token);
        if (!call) return; // answered after its timeout
        this.pending.delete(token);
        clearTimeout(call.timer);
        if (msg.headers?.code === 503) call.reject({ code: 'NO_SUBSCRIBERS' });
        else call.resolve(msg.data); // bytes: decodeReply decodes the JSON head and leaves a tail as it is
      },
    });
    this.inboxes.set(service, inbox);
    return inbox;
  }
}
