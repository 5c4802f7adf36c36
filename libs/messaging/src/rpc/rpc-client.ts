import { type RequestContext, type RpcDescriptor } from '@hub/contracts';

export interface RpcCallOptions {
  /** Overrides the default timeout (HUB_RPC_TIMEOUT_MS). */
  timeoutMs?: number;
}

/**
 * The typed way to call a service: `rpc.call(CredentialsRpc.VerifyToken, { tokenHash }, ctx)` takes
 * its request and reply types from the descriptor. Resolves with the handler's result; rejects
 * with a HubError carrying the service's status (504 on timeout, 503 when no service listens).
 * Controllers never hold a raw ClientProxy.
 */
export abstract class RpcClient {
  abstract call<Req, Res>(
    rpc: RpcDescriptor<Req, Res>,
    data: Req,
    ctx: RequestContext,
    options?: RpcCallOptions,
  ): Promise<Res>;
}
