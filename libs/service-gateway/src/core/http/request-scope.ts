import { type FastifyReply } from 'fastify';
import { PassThrough } from 'node:stream';

/**
 * Streams and timers that live for one request. An 'error' event with no listener throws, and
 * from a timer or a stream callback nothing catches it but the process (issue 22: a 408 raised
 * on the body guard's stream after Fastify had answered 413 and stopped listening ended the
 * hub). So every stream the edge makes for a request is made here, with a listener of its own,
 * and every timer is cleared when the response ends.
 */

/** Whether the response is over (sent, or its connection gone): nothing for this request is left to do. */
function onResponseEnd(reply: FastifyReply, fn: () => void): void {
  if (reply.raw.writableEnded || reply.raw.destroyed) return fn();
  reply.raw.once('close', fn);
}

/**
 * A PassThrough for this request. Its consumer (Fastify's body reader) reports the stream's
 * errors while it reads; once it has answered it stops listening, and a later error is this
 * request's, already answered: dropped here rather than thrown. Destroyed when the response ends.
 */
export function requestStream(reply: FastifyReply): PassThrough {
  const stream = new PassThrough();
  stream.on('error', () => undefined);
  onResponseEnd(reply, () => stream.destroy());
  return stream;
}

/** A timer for this request, cleared when the response ends; the returned function clears it earlier. */
export function requestTimer(reply: FastifyReply, ms: number, fn: () => void): () => void {
  const timer = setTimeout(fn, ms);
  timer.unref();
  const clear = (): void => clearTimeout(timer);
  onResponseEnd(reply, clear);
  return clear;
}
