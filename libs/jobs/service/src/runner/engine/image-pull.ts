import { type Engine } from './engine-connect';
import { imageExists } from './engine-request';

interface PullEvent {
  id?: string;
  error?: string;
  progressDetail?: { current?: number; total?: number };
}

const mb = (n: number): string => `${(n / 1e6).toFixed(1)} MB`;

/**
 * Makes sure the image `ref` (a checked reference with its tag or digest: engineImageRef) is in the
 * engine: pulls it when missing, reporting progress (at most once a second, our own numbers only)
 * through `onProgress`. Rejects with the engine's message, which the caller logs and never shows.
 */
export async function ensureImage(engine: Engine, ref: string, onProgress: (message: string) => void): Promise<void> {
  if (await imageExists(engine, ref)) return;
  onProgress(`Pulling image ${ref}`);
  // fromImage travels in the query string, which dockerode encodes.
  const stream = await engine.api.pull(ref);
  const layers = new Map<string, { current: number; total: number }>();
  let last = Date.now();
  await new Promise<void>((resolve, reject) => {
    engine.api.modem.followProgress(
      stream,
      (err: Error | null, events: PullEvent[]) => {
        const failed = err?.message ?? events.find((e) => e.error)?.error;
        if (failed) reject(new Error(failed));
        else resolve();
      },
      (e: PullEvent) => {
        if (e.id && e.progressDetail?.total)
          layers.set(e.id, { current: e.progressDetail.current ?? 0, total: e.progressDetail.total });
        if (Date.now() - last < 1000) return;
        last = Date.now();
        const done = [...layers.values()].reduce((s, l) => s + l.current, 0);
        const total = [...layers.values()].reduce((s, l) => s + l.total, 0);
        onProgress(`Pulling image ${ref}${total ? `: ${mb(done)} of ${mb(total)}` : ''}`);
      },
    );
  });
  onProgress(`Pulled image ${ref}`);
}
