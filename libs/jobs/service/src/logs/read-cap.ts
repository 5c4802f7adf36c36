import { Transform } from 'node:stream';

/** Length of one accounting window. */
const WINDOW_MS = 100;

/**
 * A job's output stream read at most `bytesPerSecond` (decision 0631): past it the next chunk is
 * handed on when the next 100 ms window opens, so the stream's back-pressure makes the job's own
 * writes wait. A flood then costs the engine and the hub a bounded amount of work a second.
 */
export function readCap(bytesPerSecond: number): Transform {
  const perWindow = Math.max(1, Math.floor((bytesPerSecond * WINDOW_MS) / 1000));
  let opened = Date.now();
  let used = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const now = Date.now();
      if (now - opened >= WINDOW_MS) {
        opened = now;
        used = 0;
      }
      used += chunk.length;
      if (used <= perWindow) {
        done(null, chunk);
        return;
      }
      setTimeout(() => done(null, chunk), opened + WINDOW_MS - now);
    },
  });
}
