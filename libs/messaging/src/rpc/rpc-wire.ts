import { HubError, type ErrorEnvelope, type RequestContext } from '@hub/contracts';
import { toHubError } from './rpc-errors';

/**
 * A reply on the bus: `{"result": ...}`, `{}` for a handler that returned nothing, or
 * `{"error": {code, status, message}}`. Both ends are ours (RpcDispatcher, the RPC clients).
 */
export interface RpcReply {
  result?: unknown;
  error?: ErrorEnvelope;
}

/** A request on the bus: `{"ctx": ..., "data": ...}`. */
export function encodeRequest(data: unknown, ctx: RequestContext): string {
  return JSON.stringify({ ctx, data });
}

/** The handler's result, or the HubError its envelope describes. */
export function decodeReply<Res>(raw: string, subject: string): Res {
  let reply: RpcReply;
  try {
    reply = JSON.parse(raw) as RpcReply;
  } catch (error) {
    throw toHubError(error, subject);
  }
  if (reply.error) throw HubError.fromEnvelope(reply.error);
  return reply.result as Res;
}
