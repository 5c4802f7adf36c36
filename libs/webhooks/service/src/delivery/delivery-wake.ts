import { Injectable } from '@nestjs/common';

/** What the delivery worker does when woken (DeliveryWorker). */
export interface WakeListener {
  poke(): void;
  optionsChanged(): void;
}

/**
 * How another area wakes this process's delivery worker, since areas never inject each other's
 * classes (decision 0002): recovery after it put rows back in the queue, options after a webhook's
 * changed. One instance, in the service's core module; the worker listens from its construction.
 */
@Injectable()
export class DeliveryWake {
  private listener?: WakeListener;

  listen(listener: WakeListener): void {
    this.listener = listener;
  }

  /** Rows were queued: look now rather than at the next poll. */
  queued(): void {
    this.listener?.poke();
  }

  /** A webhook's delivery options changed here: look them up at once. */
  optionsChanged(): void {
    this.listener?.optionsChanged();
  }
}
