import { type NatsConnection } from 'nats';
import { type RequestContext, type RpcDescriptor } from '@hub/contracts';
import { RpcClient, type RpcCallOptions } from './rpc-client';
import { toHubError } from './rpc-errors';
import { decodeReply, encodeRequest } from './rpc-wire';

/**
 * RPC over NATS request/reply with our own wire format (rpc-wire.ts), served by RpcServer.
 * nats.js `request` shares one reply inbox across calls and reports "no responders" at once
 * (503); its timeout is a 504. No headers: the request id travels in the context, and a
 * message without headers is cheaper to encode and parse on both ends.
 */
export class NatsRpcClient extends RpcClient {
  constructor(
    private readonly nc: NatsConnection,
    private readonly defaultTimeoutMs: number,
  ) {
    super();
  }

  async call<Req, Res>(rpc: RpcDescriptor<Req, Res>, data: Req, ctx: RequestContext, options?: RpcCallOptions): Promise<Res> {
    const subject = rpc.subject;
    let raw: string;
    try {
      const msg = await this.nc.request(subject, encodeRequest(data, ctx), { timeout: options?.timeoutMs ?? this.defaultTimeoutMs });
      raw = msg.string();
    } catch (error) {
      throw toHubError(error, subject);
    }
    return decodeReply<Res>(raw, subject);
  }
}
