/**
 * Gathers items handed in at about the same time into one write: each caller's promise settles
 * with the write of its batch (so a message is acked only once its row is stored). A batch is
 * written when it holds `max` items, or `gatherMs` after its first item (0: on the next turn of
 * the event loop). `write` may answer an error per item (in the items' order): that item's promise
 * fails with it alone; a `write` that throws fails the whole batch.
 */
export class InsertBatcher<T> {
  private pending: { item: T; done: (err?: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | NodeJS.Immediate | undefined;

  constructor(
    private readonly write: (items: T[]) => Promise<readonly (Error | undefined)[] | void>,
    private readonly max = 200,
    private readonly gatherMs = 0,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (this.pending.length >= this.max) this.flush();
      else if (!this.timer)
        this.timer =
          this.gatherMs > 0 ? setTimeout(() => this.flush(), this.gatherMs) : setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    clearTimeout(this.timer as NodeJS.Timeout);
    clearImmediate(this.timer as NodeJS.Immediate);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.write(batch.map((b) => b.item)).then(
      (errors) => batch.forEach((b, i) => b.done(errors ? errors[i] : undefined)),
      (err: unknown) => batch.forEach((b) => b.done(err ?? new Error('batch write failed'))),
    );
  }
}
