import type { IncomingMessage } from 'node:http';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export type BodyRead = { ok: true; body: Buffer } | { ok: false; reason: 'too-large' | 'aborted' };

/**
 * Buffers the request body up to `limit` bytes. A declared Content-Length above the limit is
 * refused before a byte is read; a chunked body is cut off as soon as it goes over.
 */
export function readRequestBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ ok: false, reason: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.off('end', onEnd);
        resolve({ ok: false, reason: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    // A delivery usually arrives in one chunk: hand it over as is instead of copying it.
    const onEnd = () =>
      resolve({ ok: true, body: chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, size) });
    req.on('data', onData);
    req.on('end', onEnd);
    // A client that goes away mid-body: nobody is left to answer (resolving twice is a no-op).
    req.on('error', () => resolve({ ok: false, reason: 'aborted' }));
    req.on('close', () => resolve({ ok: false, reason: 'aborted' }));
  });
}
