/**
 * Host uids for host-mode jobs when the service runs as root (decision 0621): each running job
 * gets one of its own, so no job can signal, trace or read the files of another even where the
 * sandbox would let it see them, and the process limit (RLIMIT_NPROC) counts one job only.
 * In-process: two jobs services as root on one machine should be given different bases.
 */
export class JobUids {
  private readonly used = new Set<number>();

  constructor(
    private readonly base: number,
    private readonly count: number,
  ) {}

  /** The lowest free uid; null when every one is taken. */
  take(): number | null {
    for (let i = 0; i < this.count; i++) {
      const uid = this.base + i;
      if (!this.used.has(uid)) {
        this.used.add(uid);
        return uid;
      }
    }
    return null;
  }

  release(uid: number): void {
    this.used.delete(uid);
  }
}
