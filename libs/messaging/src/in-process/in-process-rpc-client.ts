import { type RequestContext, type RpcDescriptor } from '@hub/contracts';
import { RpcClient, type RpcCallOptions } from '../rpc/rpc-client';
import { toHubError } from '../rpc/rpc-errors';
import { decodeReply, encodeRequest } from '../rpc/rpc-wire';
import { type InProcessBroker } from './in-process-broker';

/**
 * RPC in the all-in-one process. The request and reply cross as JSON, as over NATS, so a
 * handler sees the same copy (dates as strings, no shared objects) in both modes.
 */
export class InProcessRpcClient extends RpcClient {
  constructor(
    private readonly broker: InProcessBroker,
    private readonly defaultTimeoutMs: number,
  ) {
    super();
  }

  async call<Req, Res>(rpc: RpcDescriptor<Req, Res>, data: Req, ctx: RequestContext, options?: RpcCallOptions): Promise<Res> {
    const subject = rpc.subject;
    const pending = this.broker.dispatch(subject, encodeRequest(data, ctx));
    if (!pending) throw toHubError({ code: 'NO_SUBSCRIBERS' }, subject);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(toHubError({ code: 'TIMEOUT' }, subject)), options?.timeoutMs ?? this.defaultTimeoutMs);
    });
    try {
      return decodeReply<Res>(await Promise.race([pending, timeout]), subject);
    } finally {
      clearTimeout(timer);
    }
  }
}
