import { HttpException, Logger } from '@nestjs/common';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { randomUUID } from 'node:crypto';
import {
  BadRequestError,
  checkRequestContext,
  type ErrorEnvelope,
  HubError,
  type PayloadClass,
  type RequestContext,
  type RpcMessage,
  TailedReply,
} from '@hub/contracts';
import { jsonCopy } from './json-copy';
import { validatePayload } from './payload-validation';
import { encodeReply, type RpcReply } from './rpc-wire';
import { contextFromTraceparent, hubTracer } from '../tracing/trace-context';

/** One served RPC: its subject, the class its payload is validated against, the bound handler. */
export interface RpcRoute {
  readonly subject: string;
  readonly request: PayloadClass<unknown>;
  readonly invoke: (dto: unknown, ctx: RequestContext) => unknown;
}

/**
 * The whole receiving side of an RPC, the same over NATS and in-process: parse, check the caller
 * context, validate the payload into its DTO, call the handler, serialize the reply, and turn
 * whatever was thrown into the one envelope that crosses the bus. It replaces Nest's
 * microservice pipeline (context creator, pipes, filters, rxjs), which cost about 200 us of CPU
 * per call (bench:gateway, decision 0300).
 */
export class RpcDispatcher {
  private readonly logger = new Logger('RpcServer');

  /** `raw`: the request's JSON as it crossed the bus. Resolves with the reply (rpc-wire.ts); never rejects. */
  async handle(route: RpcRoute, raw: string): Promise<string | Uint8Array> {
    try {
      return encodeReply(await this.run(route, parseMessage(raw)));
    } catch (error) {
      const reply: RpcReply = { error: this.toEnvelope(error, route.subject) };
      return JSON.stringify(reply);
    }
  }

  /**
   * In-process: `message` is the request as it would have been parsed off the bus (the caller
   * passes a jsonCopy), and the reply is the value decodeReply would give, copied the same way:
   * the handler and the caller share no object, without the JSON text in between. Never rejects.
   */
  async handleCopy(route: RpcRoute, message: unknown): Promise<RpcReply> {
    try {
      return { result: copyResult(await this.run(route, message)) };
    } catch (error) {
      return { error: jsonCopy(this.toEnvelope(error, route.subject)) as ErrorEnvelope };
    }
  }

  private run(route: RpcRoute, message: unknown): unknown {
    if (typeof message !== 'object' || message === null)
      throw new BadRequestError('the message must be an object {ctx, data}', 'INVALID_MESSAGE');
    const { ctx, data } = message as Partial<RpcMessage<unknown>>;
    const checked = checkRequestContext(ctx);
    if ('problem' in checked)
      throw new BadRequestError(`invalid request context: ${checked.problem}`, 'INVALID_CONTEXT');
    const dto = validatePayload(route.request, data ?? {});
    const traceparent = checked.ctx.traceparent;
    if (!traceparent) return route.invoke(dto, checked.ctx);
    // A traced caller over NATS: this handler's work is a span of its trace (decision 0504).
    return hubTracer().startActiveSpan(
      `rpc ${route.subject}`,
      { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'nats', 'rpc.method': route.subject } },
      contextFromTraceparent(traceparent),
      async (span) => {
        try {
          return await route.invoke(dto, checked.ctx);
        } catch (err) {
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw err;
        } finally {
          span.end();
        }
      },
    );
  }

  private toEnvelope(error: unknown, subject: string): ErrorEnvelope {
    if (error instanceof HubError) return error.toEnvelope();
    if (error instanceof HttpException)
      return { code: `HTTP_${error.getStatus()}`, status: error.getStatus(), message: error.message };
    const errorId = randomUUID();
    // `err` as the key: pino prints the stack only under it.
    this.logger.error({ err: error, errorId, subject }, `Unhandled error ${errorId}`);
    return { code: 'INTERNAL', status: 500, message: `Internal error (id ${errorId})` };
  }
}

function parseMessage(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new BadRequestError('the message is not JSON', 'INVALID_MESSAGE');
  }
}

/** A handler's result as the caller would decode it off the bus: a TailedReply keeps its tail, copied. */
function copyResult(result: unknown): unknown {
  if (!(result instanceof TailedReply)) return jsonCopy(result);
  const tail = typeof result.tail === 'string' ? result.tail : Buffer.from(result.tail);
  return new TailedReply(jsonCopy(result.head), tail);
}
