import { LogGate } from './log-gate';

const line = (i: number) => `line-${String(i).padStart(4, '0')}`; // 9 characters: costs 10

describe('LogGate', () => {
  it('lets lines through at the rate, oldest first, holding the rest', () => {
    const gate = new LogGate({ rateBytes: 100, ringLines: 1000, ringBytes: 10_000 });
    for (let i = 0; i < 25; i++) gate.push(line(i));
    const t0 = Date.now();
    // One second's worth saved up at the start: 10 lines.
    expect(gate.take(t0)).toEqual(Array.from({ length: 10 }, (_, i) => line(i)));
    expect(gate.take(t0)).toEqual([]);
    // Half a second later, five more.
    expect(gate.take(t0 + 500)).toEqual([5, 6, 7, 8, 9].map((i) => line(i + 5)));
    expect(gate.waiting).toBe(true);
    expect(gate.rest()).toEqual(Array.from({ length: 10 }, (_, i) => line(i + 15)));
    expect(gate.waiting).toBe(false);
    expect(gate.dropped).toEqual({ lines: 0, bytes: 0 });
  });

  it('drops the oldest lines past its ring and marks the gap before the next lines handed on', () => {
    const gate = new LogGate({ rateBytes: 1024, ringLines: 1000, ringBytes: 50 });
    for (let i = 0; i < 1000; i++) gate.push(line(i));
    const out = gate.take(Date.now() + 1000);
    expect(out).toHaveLength(6);
    expect(out[0]).toBe(
      '[hub] 995 lines (0.0 MB) dropped here: the job logged faster than 1 KiB/s (995 lines, 0.0 MB dropped so far)',
    );
    // The newest lines, the last one included.
    expect(out.slice(1)).toEqual([995, 996, 997, 998, 999].map(line));
    expect(gate.dropped).toEqual({ lines: 995, bytes: 9950 });
  });

  it('bounds the ring in lines too, and marks each gap with its own count and the running total', () => {
    const gate = new LogGate({ rateBytes: 1 << 20, ringLines: 3, ringBytes: 1 << 20 });
    for (let i = 0; i < 10; i++) gate.push(line(i));
    expect(gate.rest()).toEqual([expect.stringMatching(/^\[hub\] 7 lines .* \(7 lines,/), line(7), line(8), line(9)]);
    for (let i = 10; i < 15; i++) gate.push(line(i));
    expect(gate.rest()).toEqual([
      expect.stringMatching(/^\[hub\] 2 lines .* \(9 lines,/),
      line(12),
      line(13),
      line(14),
    ]);
    expect(gate.rest()).toEqual([]);
  });

  it('names lines an upstream producer dropped in its next marker', () => {
    const gate = new LogGate({ rateBytes: 1024, ringLines: 10, ringBytes: 1000 });
    gate.note(4000, 2 * 1_048_576);
    expect(gate.rest()).toEqual([
      '[hub] 4000 lines (2.0 MB) dropped here: the job logged faster than 1 KiB/s (4000 lines, 2.0 MB dropped so far)',
    ]);
  });

  it('holds a flood of ten million lines in bounded memory, quickly', () => {
    const gate = new LogGate({ rateBytes: 128 * 1024, ringLines: 10_000, ringBytes: 1 << 20 });
    const text = 'y'.repeat(99);
    const start = Date.now();
    let kept = 0;
    let markers = 0;
    const count = (out: string[]) => {
      for (const l of out)
        if (l.startsWith('[hub] ')) markers++;
        else kept++;
    };
    for (let i = 0; i < 10_000_000; i++) {
      gate.push(text);
      if (i % 1000 === 0) count(gate.take());
    }
    count(gate.rest());
    const seconds = (Date.now() - start) / 1000;
    // 128 KiB a second (100 bytes a line) plus the ring's 1 MiB at the end.
    expect(kept).toBeLessThanOrEqual(Math.ceil((seconds + 1) * 1311) + 10_486);
    expect(gate.dropped.lines).toBe(10_000_000 - kept);
    expect(markers).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(10);
  });
});
