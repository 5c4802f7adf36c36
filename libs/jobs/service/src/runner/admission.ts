interface Waiter {
  jobId: string;
  namespace: string;
  admit(admitted: boolean): void;
  onWait(message: string): void;
  /** The last reason told, so a job is told again only when it changes. */
  told?: string;
}

/**
 * How many jobs this runner runs at once (HUB_JOBS_MAX_RUNNING) and per namespace
 * (HUB_JOBS_MAX_RUNNING_PER_NAMESPACE). Jobs past a cap wait in creation order; a job held only
 * by its namespace's cap does not hold back other namespaces' jobs behind it.
 */
export class Admission {
  private total = 0;
  private readonly perNamespace = new Map<string, number>();
  private readonly queue: Waiter[] = [];

  constructor(
    private readonly maxRunning: number,
    private readonly maxPerNamespace: number,
  ) {}

  /**
   * Resolves true when the job may start (then `release` once it ends), false when it was
   * withdrawn while waiting. `onWait` tells why it waits (again whenever the reason changes).
   */
  acquire(jobId: string, namespace: string, onWait: (message: string) => void): Promise<boolean> {
    return new Promise((admit) => {
      this.queue.push({ jobId, namespace: namespace.toLowerCase(), admit, onWait });
      this.pump();
    });
  }

  release(namespace: string): void {
    const ns = namespace.toLowerCase();
    this.total--;
    const n = (this.perNamespace.get(ns) ?? 1) - 1;
    if (n > 0) this.perNamespace.set(ns, n);
    else this.perNamespace.delete(ns);
    this.pump();
  }

  /** A waiting job canceled: it leaves the queue (its `acquire` resolves false). */
  withdraw(jobId: string): void {
    const i = this.queue.findIndex((w) => w.jobId === jobId);
    if (i === -1) return;
    const [w] = this.queue.splice(i, 1);
    w.admit(false);
    this.pump();
  }

  get waiting(): number {
    return this.queue.length;
  }

  /** Admits every waiter the caps allow, in order; tells the others why they wait. */
  private pump(): void {
    for (let i = 0; i < this.queue.length;) {
      const w = this.queue[i];
      const why = this.reason(w.namespace);
      if (!why) {
        this.queue.splice(i, 1);
        this.total++;
        this.perNamespace.set(w.namespace, (this.perNamespace.get(w.namespace) ?? 0) + 1);
        w.admit(true);
        continue;
      }
      if (w.told !== why) {
        w.told = why;
        w.onWait(why);
      }
      i++;
    }
  }

  private reason(namespace: string): string | null {
    if (this.total >= this.maxRunning)
      return `Waiting: this runner already runs ${this.total} jobs, its limit (HUB_JOBS_MAX_RUNNING=${this.maxRunning}); jobs start in the order they were created`;
    const n = this.perNamespace.get(namespace) ?? 0;
    if (n >= this.maxPerNamespace)
      return `Waiting: this namespace already runs ${n} jobs on this runner, its limit (HUB_JOBS_MAX_RUNNING_PER_NAMESPACE=${this.maxPerNamespace}); jobs start in the order they were created`;
    return null;
  }
}
