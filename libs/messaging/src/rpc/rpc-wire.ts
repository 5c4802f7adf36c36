import { HubError, type ErrorEnvelope, type RequestContext, TailedReply } from '@hub/contracts';
import { toHubError } from './rpc-errors';

/**
 * A reply on the bus: `{"result": ...}`, `{}` for a handler that returned nothing, or
 * `{"error": {code, status, message}}`. Both ends are ours (RpcDispatcher, the RPC clients).
 * A TailedReply is `{"result": <head>}`, a newline, then the tail as it is: JSON text never holds
 * a raw newline (nor does any byte of a multi-byte UTF-8 character), so the first one ends the head.
 */
export interface RpcReply {
  result?: unknown;
  error?: ErrorEnvelope;
}

/** A request on the bus: `{"ctx": ..., "data": ...}`. */
export function encodeRequest(data: unknown, ctx: RequestContext): string {
  return JSON.stringify({ ctx, data });
}

/**
 * The reply of a handler's result. A TailedReply is its head, a newline, then its tail: as text
 * when the tail is text, as bytes when the tail is bytes (the tail is copied once, never encoded).
 */
export function encodeReply(result: unknown): string | Uint8Array {
  if (result === undefined) return '{}';
  if (!(result instanceof TailedReply)) return JSON.stringify({ result });
  const head = `${JSON.stringify({ result: result.head })}\n`;
  return typeof result.tail === 'string' ? head + result.tail : Buffer.concat([Buffer.from(head), result.tail]);
}

const NEWLINE = 0x0a;
const utf8 = new TextDecoder();

/**
 * The handler's result, or the HubError its envelope describes, from the bytes NATS delivered:
 * a tail stays bytes, never decoded. (The in-process transport passes values: jsonCopy.)
 */
export function decodeReply<Res>(raw: Uint8Array, subject: string): Res {
  let reply: RpcReply;
  let tail: Uint8Array | undefined;
  try {
    const end = raw.indexOf(NEWLINE);
    reply = JSON.parse(utf8.decode(end < 0 ? raw : raw.subarray(0, end))) as RpcReply;
    if (end >= 0) tail = raw.subarray(end + 1);
  } catch (error) {
    throw toHubError(error, subject);
  }
  if (reply.error) throw HubError.fromEnvelope(reply.error);
  return (tail === undefined ? reply.result : new TailedReply(reply.result, tail)) as Res;
}
