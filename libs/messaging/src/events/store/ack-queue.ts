import { type BusStore, type ConsumerRef } from './bus-store';

/**
 * Acknowledgements of one durable consumer, written one statement at a time: acks that arrive
 * while a statement runs go together in the next one (group commit, no timer).
 */
export class AckQueue {
  private waiting: number[] = [];
  private writing: Promise<void> | null = null;

  constructor(
    private readonly store: BusStore,
    private readonly ref: ConsumerRef,
    private readonly failed: (err: unknown) => void,
  ) {}

  add(seq: number): void {
    this.waiting.push(seq);
    if (!this.writing) this.writing = this.writeAll();
  }

  /** Resolves once every ack added so far is written (or failed). */
  async flushed(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async writeAll(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const seqs = this.waiting;
        this.waiting = [];
        // A failed ack leaves the message pending: it comes back after its ack wait (at least once).
        await this.store.ack(this.ref, seqs).catch(this.failed);
      }
    } finally {
      this.writing = null;
    }
  }
}
