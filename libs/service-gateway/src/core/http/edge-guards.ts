import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { PassThrough, type Readable } from 'node:stream';
import { EdgeError } from './json-body';

/**
 * A body must arrive whole within `timeoutMs` of the headers: a client sending 4 bytes every 5 s
 * gets 408 instead of holding a connection (and a request slot) forever. Node's own
 * requestTimeout stays as the backstop for slow headers.
 */
export function limitBodyTime(fastify: FastifyInstance, timeoutMs: number): void {
  fastify.addHook('preParsing', (req: FastifyRequest, reply: FastifyReply, payload: Readable, done: (err: Error | null, body?: Readable) => void) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return done(null, payload);
    const out = new PassThrough();
    const timer = setTimeout(() => {
      payload.unpipe(out);
      // The rest of the body may never come: answer, then close rather than wait for it.
      void reply.header('Connection', 'close');
      out.destroy(new EdgeError(408, 'BODY_TIMEOUT', `Request body not received within ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref();
    const stop = (): void => clearTimeout(timer);
    payload.once('end', stop);
    payload.once('error', (e) => {
      stop();
      out.destroy(e);
    });
    out.once('close', stop);
    payload.pipe(out);
    done(null, out);
  });
}
