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

/**
 * A lingering close after a 413: the client may still be sending the body it declared when the
 * refusal goes out. Closing at once makes the peer's kernel answer the bytes still arriving with a
 * reset, which can drop the 413 from the client's receive buffer before it reads it (seen with raw
 * clients here, and a known trouble of Python's requests). So the connection stays open while the
 * rest of the body is read and thrown away, as nginx does, for at most `timeoutMs` and `maxBytes`;
 * past either it is closed. A body that ends within them leaves a connection the client may reuse.
 */
export function lingerAfterRefusal(fastify: FastifyInstance, timeoutMs: number, maxBytes: number): void {
  fastify.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode !== 413 || req.raw.complete) return payload;
    reply.removeHeader('connection');
    const socket = req.raw.socket;
    let read = 0;
    const count = (chunk: Buffer): void => {
      read += chunk.length;
      if (read > maxBytes) socket.destroy();
    };
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    timer.unref();
    const done = (): void => {
      clearTimeout(timer);
      socket.off('data', count);
    };
    socket.on('data', count);
    socket.once('close', done);
    req.raw.once('end', done);
    // Nothing reads the body any more (the parser gave up at the limit): drain it.
    req.raw.unpipe();
    req.raw.resume();
    return payload;
  });
}
