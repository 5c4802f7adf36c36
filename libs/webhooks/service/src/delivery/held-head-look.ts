/** The first look again for ordered heads held at the watermark: its reuse (IntakeWatermark). */
const FIRST_LOOK_MS = 25;

/**
 * When to look again for ordered heads held at the intake's watermark (decision 0511). Rows queued
 * here for an event past the watermark the paced claim read hold an ordered head until the earlier
 * events' intake is done, and nothing pokes the claim loop when it is. They are looked for again
 * after the watermark's reuse (25 ms) rather than at the next poll (issue 43: a quarter of a second
 * late under a noisy neighbour), twice as late each time the watermark has not moved (an event
 * whose intake keeps failing holds it for minutes), never later than the poll.
 */
export class HeldHeadLook {
  /** The highest event seq this process's intake queued rows for that wait for a claim. */
  private queuedSeq = 0;
  private last = { ms: 0, watermark: -1 };

  constructor(private readonly pollMs: number) {}

  queued(seq: number): void {
    if (seq > this.queuedSeq) this.queuedSeq = seq;
  }

  /** Milliseconds until the next look after a claim that read `watermark`; null when nothing is held. */
  after(watermark: number): number | null {
    if (this.queuedSeq <= watermark + 1) {
      this.last = { ms: 0, watermark };
      return null;
    }
    const ms =
      // The first look, or the watermark moved: 25 ms (0 would spin on the reused watermark).
      watermark > this.last.watermark || this.last.ms === 0 ? FIRST_LOOK_MS : Math.min(this.last.ms * 2, this.pollMs);
    this.last = { ms, watermark };
    return ms;
  }
}
