import { Controller } from '@nestjs/common';
import { type RequestContext, type RpcDescriptor } from '@hub/contracts';

const RPC_HANDLER = Symbol('hub:rpc-handler');

/**
 * A class of RPC handlers. A Nest controller so that modules list it under `controllers` and
 * Nest builds it with its dependencies; the RpcServer finds its @RpcHandler methods.
 */
export function RpcController(): ClassDecorator {
  return Controller();
}

/**
 * Serves one RPC: `@RpcHandler(CredentialsRpc.VerifyToken) onVerify(dto: VerifyTokenRpc, ctx: RequestContext)`.
 * The RpcServer calls the method with the payload, validated against the descriptor's request
 * class, and the checked caller context; it must take the descriptor's request and return its
 * reply, or it does not compile.
 */
export function RpcHandler<Req, Res>(rpc: RpcDescriptor<Req, Res>) {
  return <M extends (dto: Req, ctx: RequestContext) => Res | Promise<Res>>(
    _target: object,
    _key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    if (descriptor.value) Reflect.defineMetadata(RPC_HANDLER, rpc, descriptor.value);
  };
}

/** The descriptor a method serves, if it is an @RpcHandler. */
export function rpcDescriptorOf(method: unknown): RpcDescriptor<unknown, unknown> | undefined {
  return typeof method === 'function'
    ? (Reflect.getMetadata(RPC_HANDLER, method) as RpcDescriptor<unknown, unknown> | undefined)
    : undefined;
}
