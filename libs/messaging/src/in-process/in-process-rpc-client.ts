import { HubError, type RequestContext, type RpcDescriptor } from '@hub/contracts';
import { jsonCopy } from '../rpc/json-copy';
import { RpcClient, type RpcCallOptions } from '../rpc/rpc-client';
import { toHubError } from '../rpc/rpc-errors';
import { type RpcReply } from '../rpc/rpc-wire';
import { type InProcessBroker } from './in-process-broker';

/**
 * RPC in the all-in-one process. The request and the reply are copied as a JSON round trip would
 * copy them (jsonCopy), so a handler sees what it would see over NATS (dates as strings, no shared
 * objects) in both modes, without encoding and parsing the text (decision 0006).
 */
export class InProcessRpcClient extends RpcClient {
  constructor(
    private readonly broker: InProcessBroker,
    private readonly defaultTimeoutMs: number,
  ) {
    super();
  }

  async call<Req, Res>(
    rpc: RpcDescriptor<Req, Res>,
    data: Req,
    ctx: RequestContext,
    options?: RpcCallOptions,
  ): Promise<Res> {
    const subject = rpc.subject;
    const pending = this.broker.dispatch(subject, jsonCopy({ ctx, data }));
    if (!pending) throw toHubError({ code: 'NO_SUBSCRIBERS' }, subject);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(toHubError({ code: 'TIMEOUT' }, subject)),
        options?.timeoutMs ?? this.defaultTimeoutMs,
      );
    });
    try {
      const reply: RpcReply = await Promise.race([pending, timeout]);
      if (reply.error) throw HubError.fromEnvelope(reply.error);
      return reply.result as Res;
    } finally {
      clearTimeout(timer);
    }
  }
}
