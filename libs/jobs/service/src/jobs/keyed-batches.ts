/**
 * Work queued by key and written in batches (decision 0636): the first item of a key goes at once;
 * those added while batches of that key are under way go next together, at most `maxBatch` in a
 * batch and `atOnce` batches of a key at the same time. Each batch's answers are given after the
 * answers of the batch before it (in the order the items were added). Keys are independent.
 */
export class KeyedBatches<T> {
  private readonly lines = new Map<string, { queued: T[]; writing: number; answered: Promise<void> }>();

  /** `write` writes a batch and answers with what gives its items their answers (it must not throw). */
  constructor(
    private readonly maxBatch: number,
    private readonly atOnce: number,
    private readonly write: (batch: T[]) => Promise<() => void>,
  ) {}

  add(key: string, item: T): void {
    let line = this.lines.get(key);
    if (!line) this.lines.set(key, (line = { queued: [], writing: 0, answered: Promise.resolve() }));
    line.queued.push(item);
    this.next(key);
  }

  private next(key: string): void {
    const line = this.lines.get(key);
    if (!line) return;
    while (line.writing < this.atOnce && line.queued.length > 0) {
      const written = this.write(line.queued.splice(0, this.maxBatch));
      line.writing++;
      const before = line.answered;
      line.answered = (async () => {
        const answer = await written;
        await before;
        answer();
      })().finally(() => {
        line.writing--;
        this.next(key);
      });
    }
    if (line.writing === 0 && line.queued.length === 0) this.lines.delete(key);
  }
}
