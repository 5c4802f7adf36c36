interface Pending<T, R> {
  item: T;
  done: (answer: R) => void;
  fail: (err: unknown) => void;
}

/** How long items gather before a write, and how many one write takes at most. */
export interface GroupTiming {
  /** Items waiting longer than this are written even if few. */
  gatherMs: number;
  /** The wait when an item is added with `soon` (something waits for it). */
  soonMs: number;
  maxBatch: number;
}

/**
 * Group commit (decision 0501): the items added within a short wait are written by one call of
 * `write`, one write at a time; each `add` resolves with its item's answer once that write
 * committed, and a failed write fails every item of its group.
 */
export class GroupCommit<T, R> {
  private pending: Pending<T, R>[] = [];
  private timer?: NodeJS.Timeout;
  /** When the timer fires (ms since the epoch). */
  private timerAt = 0;
  private writing: Promise<void> | null = null;

  constructor(
    /** Answers one result per item, in the items' order. */
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly timing: GroupTiming,
  ) {}

  add(item: T, soon = false): Promise<R> {
    return new Promise((done, fail) => {
      this.pending.push({ item, done, fail });
      if (this.pending.length >= this.timing.maxBatch) return this.kick();
      const at = Date.now() + (soon ? this.timing.soonMs : this.timing.gatherMs);
      if (this.timer && this.timerAt <= at) return;
      clearTimeout(this.timer);
      this.timerAt = at;
      this.timer = setTimeout(() => this.kick(), at - Date.now());
    });
  }

  /** Writes everything added so far (at shutdown). */
  async drain(): Promise<void> {
    while (this.pending.length > 0 || this.writing) {
      this.kick();
      await this.writing;
    }
  }

  private kick(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing || this.pending.length === 0) return;
    const group = this.pending.splice(0, this.timing.maxBatch);
    this.writing = this.write(group.map((p) => p.item))
      .then(
        (answers) => group.forEach((p, i) => p.done(answers[i] as R)),
        (err: unknown) => group.forEach((p) => p.fail(err)),
      )
      .finally(() => {
        this.writing = null;
        if (this.pending.length > 0) this.kick();
      });
  }
}
