/**
 * Runs a housekeeping pass (a retention, a pruning) after `firstAfterMs`, then every `everyMs`,
 * never keeping the process alive; a failed pass is reported to `failed` and done again by the
 * next. Returns what stops it (on application shutdown).
 */
export function repeatPass(
  pass: () => Promise<unknown>,
  failed: (err: unknown) => void,
  o: { firstAfterMs: number; everyMs: number },
): () => void {
  let timer: NodeJS.Timeout | undefined;
  const run = (): void => void pass().catch(failed);
  const start = (): void => {
    run();
    timer = setInterval(run, o.everyMs).unref();
  };
  if (o.firstAfterMs > 0) timer = setTimeout(start, o.firstAfterMs).unref();
  else start();
  return () => {
    clearTimeout(timer);
    clearInterval(timer);
  };
}
