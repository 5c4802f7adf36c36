import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { HubError } from '@hub/contracts';
// The request id lives on FastifyRequest through request-context's module augmentation.
import type {} from './request-context';
import { type Answer, headerSafe } from './error-answer';
import { isScimRequest, scimErrorBody } from './scim-error';

export { type Answer, headerSafe };

function fromHttpException(e: HttpException): Answer {
  const body = e.getResponse();
  if (typeof body === 'object' && body !== null) {
    const m = (body as { message?: unknown }).message;
    if (Array.isArray(m)) return { status: e.getStatus(), message: m.join('; ') };
    if (typeof m === 'string') return { status: e.getStatus(), message: m };
  }
  return { status: e.getStatus(), message: e.message };
}

/** Fastify's own errors (bad JSON, body too large, wrong content type) carry a 4xx statusCode. */
export function fromFastifyError(e: unknown): Answer | null {
  const err = e as { statusCode?: unknown; code?: unknown; message?: unknown };
  if (typeof err?.statusCode !== 'number' || err.statusCode < 400 || err.statusCode >= 500) return null;
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, message: 'Request body is too large' };
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return { status: 415, message: 'Content-Type must be application/json' };
  if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return { status: 400, message: 'Request body is empty but Content-Type is application/json' };
  if (typeof err.code === 'string' && err.code.startsWith('FST_ERR_CTP'))
    return { status: 400, message: 'Request body is not valid JSON' };
  return { status: err.statusCode, message: String(err.message ?? 'Bad request') };
}

/**
 * Every error is `{"error": "<message naming the field or cause>"}` with X-Error-Message.
 * An unknown error is a 500 whose id is in the log, never its details in the body.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const req = http.getRequest<FastifyRequest>();
    const answer = this.answer(exception, req);
    // RFC 6750: a 401 names the scheme the client should use.
    if (answer.status === 401) void reply.header('WWW-Authenticate', 'Bearer realm="hub"');
    const { contentType, body } = isScimRequest(req.url)
      ? scimErrorBody(exception, answer)
      : { contentType: 'application/json; charset=utf-8', body: { error: answer.message } };
    void reply
      .status(answer.status)
      .header('X-Error-Message', headerSafe(answer.message))
      .header('Content-Type', contentType)
      .send(body);
  }

  private answer(exception: unknown, req: FastifyRequest): Answer {
    if (exception instanceof HubError) {
      if (exception.status >= 500)
        this.logger.warn({ code: exception.code, requestId: req.hubRequestId }, exception.message);
      return { status: exception.status, message: exception.message };
    }
    if (exception instanceof HttpException) return fromHttpException(exception);
    const fastify = fromFastifyError(exception);
    if (fastify) return fastify;
    const errorId = randomUUID();
    this.logger.error(
      { err: exception, errorId, requestId: req.hubRequestId, url: req.url },
      `Unhandled error ${errorId}`,
    );
    return { status: 500, message: `Internal error (id ${errorId})` };
  }
}
