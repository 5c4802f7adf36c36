/**
 * Waiting on progress, never on a fixed sleep: each helper polls until its condition holds and
 * gives up only after a generous cap, so a busy machine is slower but not failing.
 */

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Reads until `ok` holds, then returns that value; after `timeoutMs`, returns the last value read (the caller's expect names what is wrong). */
export async function eventually<T>(
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs = 15_000,
  pauseMs = 100,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > until) return v;
    await pause(pauseMs);
  }
}

/** Resolves once `cond` holds; rejects after `timeoutMs`, naming `what`. */
export async function waitUntil(cond: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  await waitFor(what, () => (cond() ? true : undefined), timeoutMs);
}

/** Resolves with the first defined value `probe` gives; rejects after `timeoutMs`, naming `what`. */
export async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await pause(20);
  }
}
