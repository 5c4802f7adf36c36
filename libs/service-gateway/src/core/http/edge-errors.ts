import { randomUUID } from 'node:crypto';
import { type Socket } from 'node:net';
import { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { type Answer, headerSafe } from './error-answer';
import { isScimRequest, scimErrorBody } from './scim-error';

/** Fastify's default, kept explicit: a longer path segment is answered 414. */
export const MAX_PARAM_LENGTH = 100;

/**
 * Errors Fastify's router raises before any hook or our filter runs (bad percent-encoding, a
 * path segment over the limit): answered in our shape, with X-Request-Id (Fastify's request id,
 * see requestIdFor) and the security headers.
 */
export function answerFrameworkError(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const answer: Answer =
    error.code === 'FST_ERR_BAD_URL'
      ? { status: 400, message: 'The request path is not a valid URL (bad percent-encoding)' }
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? { status: 414, message: `A path segment is longer than ${MAX_PARAM_LENGTH} characters` }
        : {
            status: typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 400,
            message: 'Bad request',
          };
  // A SCIM path gets RFC 7644's error body, as the error filter gives it for every other error there.
  const { contentType, body } = isScimRequest(req.url)
    ? scimErrorBody(error, answer)
    : { contentType: 'application/json; charset=utf-8', body: { error: answer.message } };
  void reply
    .status(answer.status)
    .header('X-Request-Id', req.id)
    .header('X-Error-Message', headerSafe(answer.message))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'no-store')
    .header('Content-Type', contentType)
    .send(body);
}

/** Errors Node's HTTP parser raises (malformed request line, headers too large) never reach Fastify. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const [status, reason, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'Request headers are too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'Request not received in time']
        : [400, 'Bad Request', 'Malformed HTTP request'];
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${randomUUID()}\r\nX-Error-Message: ${message}\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}
