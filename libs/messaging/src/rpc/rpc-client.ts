import { type RequestContext } from '@hub/contracts';

export interface RpcCallOptions {
  /** Overrides the default timeout (HUB_RPC_TIMEOUT_MS). */
  timeoutMs?: number;
}

/**
 * The typed way to call a service: `rpc.call<Result>(CredentialsRpc.VerifyToken, data, ctx)`.
 * Resolves with the handler's result; rejects with a HubError carrying the service's status
 * (504 on timeout, 503 when no service listens). Controllers never hold a raw ClientProxy.
 */
export abstract class RpcClient {
  abstract call<TResult, TData = unknown>(
    pattern: string,
    data: TData,
    ctx: RequestContext,
    options?: RpcCallOptions,
  ): Promise<TResult>;
}
