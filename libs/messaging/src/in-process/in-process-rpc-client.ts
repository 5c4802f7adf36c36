import { type RequestContext } from '@hub/contracts';
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

  async call<TResult, TData = unknown>(pattern: string, data: TData, ctx: RequestContext, options?: RpcCallOptions): Promise<TResult> {
    const pending = this.broker.dispatch(pattern, { ctx, data });
    if (!pending) throw toHubError({ code: 'NO_SUBSCRIBERS' }, pattern);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject({ code: 'TIMEOUT' }), options?.timeoutMs ?? this.defaultTimeoutMs);
    });
    try {
      return (await Promise.race([pending, timeout])) as TResult;
    } catch (error) {
      throw toHubError(error, pattern);
    } finally {
      clearTimeout(timer);
    }
  }
}
