import { randomUUID } from 'node:crypto';
import { type NatsConnection, headers as natsHeaders } from 'nats';
import { type RequestContext, type RpcDescriptor } from '@hub/contracts';
import { RpcClient, type RpcCallOptions } from './rpc-client';
import { toHubError } from './rpc-errors';

interface NestResponsePacket {
  err?: unknown;
  response?: unknown;
  isDisposed?: boolean;
}

/**
 * RPC over NATS request/reply speaking Nest's wire format (`{pattern, data, id}` →
 * `{err, response, isDisposed}`), so services run Nest's own NATS transport. We use
 * nats.js `request` rather than Nest's ClientNats: it shares one reply inbox instead of
 * subscribing a new one per call, and reports "no responders" at once.
 */
export class NatsRpcClient extends RpcClient {
  constructor(
    private readonly nc: NatsConnection,
    private readonly defaultTimeoutMs: number,
  ) {
    super();
  }

  async call<Req, Res>(rpc: RpcDescriptor<Req, Res>, data: Req, ctx: RequestContext, options?: RpcCallOptions): Promise<Res> {
    const pattern = rpc.subject;
    const packet = { pattern, data: { ctx, data }, id: randomUUID() };
    const h = natsHeaders();
    h.set('hub-request-id', ctx.requestId);
    let reply: NestResponsePacket;
    try {
      const msg = await this.nc.request(pattern, JSON.stringify(packet), {
        timeout: options?.timeoutMs ?? this.defaultTimeoutMs,
        headers: h,
      });
      reply = msg.data.length === 0 ? { err: { code: '503' } } : (JSON.parse(msg.string()) as NestResponsePacket);
    } catch (error) {
      throw toHubError(error, pattern);
    }
    if (reply.err !== undefined && reply.err !== null) throw toHubError(reply.err, pattern);
    return reply.response as Res;
  }
}
