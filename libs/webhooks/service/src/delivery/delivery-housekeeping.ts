import { type DataSource } from 'typeorm';
import { DeliveryOptionsStore } from '../options/delivery-options.store';
import { DeliveryLogStore } from './delivery-log.store';

/** How often the log's partitions are kept (created ahead, dropped past retention). */
const PARTITION_PASS_EVERY_MS = 3600_000;

/**
 * Retention (decision 0206): the log's partitions kept (weeks past retention dropped, the weeks
 * ahead created) at boot and then hourly; finished deliveries and old trigger counts deleted on
 * every pass. The worker runs a pass every 10 s beside its claim loop.
 */
export class DeliveryHousekeeping {
  /** When the delivery log's partitions were last kept. */
  private lastPartitionPass = 0;

  constructor(
    private readonly ds: DataSource,
    private readonly retentionDays: number,
  ) {}

  async pass(): Promise<void> {
    const now = new Date();
    if (now.getTime() - this.lastPartitionPass >= PARTITION_PASS_EVERY_MS) {
      this.lastPartitionPass = now.getTime();
      await DeliveryLogStore.partitions((work) => this.ds.transaction((m) => work(m)), this.retentionDays, now);
    }
    await DeliveryLogStore.purgeFinished(this.ds.manager, this.retentionDays);
    await DeliveryOptionsStore.reconcile(this.ds.manager);
  }
}
