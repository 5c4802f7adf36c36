import { type RequestContext, type RpcDescriptor } from '@hub/contracts';
import { RpcClient, type RpcCallOptions } from '../rpc/rpc-client';
import { toHubError } from '../rpc/rpc-errors';
import { type InProcessBroker } from './in-process-broker';

export class InProcessRpcClient extends RpcClient {
  constructor(
    private readonly broker: InProcessBroker,
    private readonly defaultTimeoutMs: number,
  ) {
    super();
  }

  async call<Req, Res>(rpc: RpcDescriptor<Req, Res>, data: Req, ctx: RequestContext, options?: RpcCallOptions): Promise<Res> {
    const pattern = rpc.subject;
    const pending = this.broker.dispatch(pattern, { ctx, data });
    if (!pending) throw toHubError({ code: 'NO_SUBSCRIBERS' }, pattern);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject({ code: 'TIMEOUT' }), options?.timeoutMs ?? this.defaultTimeoutMs);
    });
    try {
      return (await Promise.race([pending, timeout])) as Res;
    } catch (error) {
      throw toHubError(error, pattern);
    } finally {
      clearTimeout(timer);
    }
  }
}
