import { repeatPass } from './housekeeping';

describe('repeatPass', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs after the first wait, then every interval, reports a failed pass and goes on, and stops', async () => {
    let runs = 0;
    const failures: unknown[] = [];
    const stop = repeatPass(
      async () => {
        runs++;
        if (runs === 2) throw new Error('boom');
      },
      (err) => failures.push(err),
      { firstAfterMs: 1000, everyMs: 500 },
    );
    await jest.advanceTimersByTimeAsync(999);
    expect(runs).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(3);
    expect(failures).toEqual([new Error('boom')]);
    stop();
    await jest.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(3);
  });

  it('runs at once with no first wait', () => {
    let runs = 0;
    const stop = repeatPass(
      async () => void runs++,
      () => undefined,
      { firstAfterMs: 0, everyMs: 500 },
    );
    expect(runs).toBe(1);
    stop();
  });
});
