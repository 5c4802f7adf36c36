import { type Engine } from './engine-connect';

/** `name` with `:latest` when it names no tag or digest (the engine would otherwise pull every tag). */
export function withTag(image: string): string {
  const last = image.slice(image.lastIndexOf('/') + 1);
  return last.includes(':') || last.includes('@') ? image : `${image}:latest`;
}

interface PullEvent {
  id?: string;
  status?: string;
  error?: string;
  progressDetail?: { current?: number; total?: number };
}

const mb = (n: number): string => `${(n / 1e6).toFixed(1)} MB`;

/**
 * Makes sure the image is in the engine: pulls it when missing, reporting progress (at most once a
 * second) through `onProgress`. Rejects with the engine's own message when the pull fails.
 */
export async function ensureImage(engine: Engine, image: string, onProgress: (message: string) => void): Promise<void> {
  const ref = withTag(image);
  const present = await engine.api
    .getImage(ref)
    .inspect()
    .then(() => true)
    .catch(() => false);
  if (present) return;
  onProgress(`Pulling image ${ref}`);
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
        onProgress(`Pulling image ${ref}: ${total ? `${mb(done)} of ${mb(total)}` : (e.status ?? '')}`.trim());
      },
    );
  });
  onProgress(`Pulled image ${ref}`);
}
