/**
 * Gathers items handed in at about the same time into one write: each caller's promise settles
 * with the write of its batch (so a message is acked only once its row is stored). A batch is
 * written when it holds `max` items or on the next turn of the event loop.
 */
export class InsertBatcher<T> {
  private pending: { item: T; done: (err?: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly max = 200,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (this.pending.length >= this.max) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.write(batch.map((b) => b.item)).then(
      () => batch.forEach((b) => b.done()),
      (err: unknown) => batch.forEach((b) => b.done(err ?? new Error('batch write failed'))),
    );
  }
}
