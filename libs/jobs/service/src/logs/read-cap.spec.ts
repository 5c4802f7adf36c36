import { Readable } from 'node:stream';
import { readCap } from './read-cap';

describe('readCap', () => {
  it('hands on every byte, in order, at most its rate (the source waits past it)', async () => {
    const chunks = Array.from({ length: 40 }, (_, i) => Buffer.alloc(10_000, i));
    const start = Date.now();
    const out: Buffer[] = [];
    // 400,000 bytes at 1,000,000 a second: at least 300 ms (the first window's 100,000 at once).
    for await (const c of Readable.from(chunks).pipe(readCap(1_000_000))) out.push(c as Buffer);
    expect(Date.now() - start).toBeGreaterThanOrEqual(280);
    expect(Buffer.concat(out).equals(Buffer.concat(chunks))).toBe(true);
  });
});
