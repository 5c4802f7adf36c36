import { createInbox, type Msg, type NatsConnection, type Subscription } from 'nats';
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
 * Replies come to one wildcard inbox subscription, matched by a token, as nats.js `request`
 * does, but without its cost: it builds and throws away a NatsError (with a stack trace) on every
 * successful request (RequestOne.resolver calls cancel()), a few percent of the gateway's CPU on
 * an RPC-bound route (bench:gateway profile). Requests of one event-loop turn share a socket
 * write (PublishQueue). "No responders" arrives as a 503 status message at
 * once; no reply within the timeout is a 504. No headers: the request id travels in the context.
 */
export class NatsRpcClient extends RpcClient {
  private readonly inbox: string;
  private readonly pending = new Map<string, Pending>();
  private next = 0;
  private subscription: Subscription | null = null;
  private readonly queue: PublishQueue;

  constructor(
    private readonly nc: NatsConnection,
    private readonly defaultTimeoutMs: number,
    /** The connection's `inboxPrefix`: the only inbox its NATS user may subscribe to (decision 0013). */
    inboxPrefix?: string,
  ) {
    super();
    this.inbox = createInbox(inboxPrefix);
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
        this.subscribe();
        this.queue.publish({ subject, payload, reply: `${this.inbox}.${token}`, onError: fail });
      } catch (error) {
        fail(error);
      }
    }).catch((error: unknown) => {
      throw toHubError(error, subject);
    });
    return decodeReply<Res>(raw, subject);
  }

  /** The reply inbox, subscribed on first use (the connection may be shared with apps that never call). */
  private subscribe(): void {
    if (this.subscription) return;
    const prefix = this.inbox.length + 1;
    this.subscription = this.nc.subscribe(`${this.inbox}.*`, {
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
  }
}
