import { type ApplyThreadEventUseCase } from './apply-thread-event.use-case';
import { type ThreadEvent } from './thread-event';
import { MAX_EVENTS_PER_COMMIT, ThreadEventBatcher } from './thread-event-batcher';

const event = (key: string): ThreadEvent => ({ key }) as ThreadEvent;

/** A stand-in for the use case that records its transactions; `bad` keys throw. */
function fakeApply(bad: Set<string> = new Set()): { use: ApplyThreadEventUseCase; commits: string[][] } {
  const commits: string[][] = [];
  const run = async (events: ThreadEvent[]): Promise<number[]> => {
    await new Promise((r) => setTimeout(r, 5));
    if (events.some((e) => bad.has(e.key))) throw new Error('bad event');
    commits.push(events.map((e) => e.key));
    return events.map(() => 1);
  };
  const use = {
    applyAll: run,
    apply: async (e: ThreadEvent) => (await run([e]))[0],
  } as unknown as ApplyThreadEventUseCase;
  return { use, commits };
}

describe('ThreadEventBatcher', () => {
  it('commits the events handed over while a transaction runs together, in arrival order, at most 32 at a time', async () => {
    const { use, commits } = fakeApply();
    const batcher = new ThreadEventBatcher(use);
    const keys = Array.from({ length: 70 }, (_, i) => `e${i}`);
    const results = await Promise.all(keys.map((k) => batcher.submit(event(k))));
    expect(results).toEqual(keys.map(() => 1));
    expect(commits.flat()).toEqual(keys);
    expect(commits.map((c) => c.length)).toEqual([
      1,
      MAX_EVENTS_PER_COMMIT,
      MAX_EVENTS_PER_COMMIT,
      70 - 1 - 2 * MAX_EVENTS_PER_COMMIT,
    ]);
  });

  it('a failing event fails alone: its batch is applied again one event per transaction', async () => {
    const { use, commits } = fakeApply(new Set(['e3']));
    const batcher = new ThreadEventBatcher(use);
    const settled = await Promise.allSettled(['e0', 'e1', 'e2', 'e3', 'e4'].map((k) => batcher.submit(event(k))));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(commits).toEqual([['e0'], ['e1'], ['e2'], ['e4']]);
  });
});
