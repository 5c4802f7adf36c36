import {
  applyDecorators, Catch, Controller, createParamDecorator, type ArgumentsHost, type ExceptionFilter,
  type ExecutionContext, HttpException, Logger, UseFilters, UsePipes, ValidationPipe, type ValidationError,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { throwError, type Observable } from 'rxjs';
import { MessagePattern } from '@nestjs/microservices';
import { BadRequestError, type ErrorEnvelope, HubError, type RequestContext, type RpcDescriptor, type RpcMessage } from '@hub/contracts';

function messageOf(host: ExecutionContext): Partial<RpcMessage<unknown>> {
  const raw: unknown = host.switchToRpc().getData();
  return typeof raw === 'object' && raw !== null ? (raw as Partial<RpcMessage<unknown>>) : {};
}

/** The payload DTO of an RPC message; validated by the pipe of @RpcController. */
export const RpcPayload = createParamDecorator((_: unknown, host: ExecutionContext) => messageOf(host).data ?? {});

/** The caller's context (user, token, request id) of an RPC message. */
export const RpcCtx = createParamDecorator(
  (_: unknown, host: ExecutionContext): RequestContext => messageOf(host).ctx ?? { requestId: 'unknown' },
);

/** class-validator's messages start with the property; nested ones get their path in front. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const own = Object.values(e.constraints ?? {}).map((m) => (parent ? `${parent}.${m}` : m));
    const path = parent ? `${parent}.${e.property}` : e.property;
    return [...own, ...flattenValidationErrors(e.children ?? [], path)];
  });
}

/** Commands are validated even on internal calls (style.md), and fail with the error envelope. */
export const rpcValidationPipe = new ValidationPipe({
  whitelist: true,
  transform: true,
  validateCustomDecorators: true,
  exceptionFactory: (errors) => new BadRequestError(flattenValidationErrors(errors).join('; ') || 'invalid message'),
});

/** Turns anything a handler throws into the one envelope that crosses the bus. */
@Catch()
export class RpcErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    return throwError(() => this.toEnvelope(exception, host));
  }

  private toEnvelope(exception: unknown, host: ArgumentsHost): ErrorEnvelope {
    if (exception instanceof HubError) return exception.toEnvelope();
    if (exception instanceof HttpException) {
      return { code: 'HTTP_' + exception.getStatus(), status: exception.getStatus(), message: exception.message };
    }
    const errorId = randomUUID();
    const pattern = host.getType() === 'rpc' ? String(host.switchToRpc().getContext()?.getSubject?.() ?? '') : '';
    // `err` as the key: pino prints the stack only under it.
    this.logger.error({ err: exception, errorId, pattern }, `Unhandled error ${errorId}`);
    return { code: 'INTERNAL', status: 500, message: `Internal error (id ${errorId})` };
  }
}

/** A class of RPC handlers: validation and the error envelope applied to every handler. */
export function RpcController(): ClassDecorator {
  return applyDecorators(Controller(), UseFilters(RpcErrorFilter), UsePipes(rpcValidationPipe));
}

/**
 * Serves one RPC: `@RpcHandler(CredentialsRpc.VerifyToken) onVerify(@RpcPayload() dto: VerifyTokenRpc)`.
 * The method must take the descriptor's request and return its reply, or it does not compile.
 */
export function RpcHandler<Req, Res>(rpc: RpcDescriptor<Req, Res>) {
  return <M extends (dto: Req, ctx: RequestContext) => Res | Promise<Res>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    MessagePattern(rpc.subject)(target, key, descriptor);
  };
}
