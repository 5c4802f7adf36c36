import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type Readable } from 'node:stream';
import { EdgeError } from './json-body';
import { requestStream, requestTimer } from './request-scope';

/**
 * A body must arrive whole within `timeoutMs` of the headers: a client sending 4 bytes every 5 s
 * gets 408 instead of holding a connection (and a request slot) forever. Node's own
 * requestTimeout stays as the backstop for slow headers.
 */
export function limitBodyTime(fastify: FastifyInstance, timeoutMs: number): void {
  fastify.addHook(
    'preParsing',
    (
      req: FastifyRequest,
      reply: FastifyReply,
      payload: Readable,
      done: (err: Error | null, body?: Readable) => void,
    ) => {
      if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)
        return done(null, payload);
      const out = requestStream(reply);
      // Cleared when the body has arrived, or when the response ends (a 413 answered before the body came).
      const stop = requestTimer(reply, timeoutMs, () => {
        payload.unpipe(out);
        // The rest of the body may never come: answer, then close rather than wait for it.
        void reply.header('Connection', 'close');
        out.destroy(new EdgeError(408, 'BODY_TIMEOUT', `Request body not received within ${timeoutMs} ms`));
      });
      payload.once('end', stop);
      payload.on('error', (e) => {
        stop();
        out.destroy(e);
      });
      out.once('close', stop);
      payload.pipe(out);
      done(null, out);
    },
  );
}
