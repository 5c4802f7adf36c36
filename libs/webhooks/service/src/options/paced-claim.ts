import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type OwnedDelivery } from '../delivery/delivery-queue.store';
import { type InFlightLoad } from '../delivery/in-flight';
import { IntakeWatermark } from '../intake/intake-watermark';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG, WEBHOOKS_DS } from '../webhooks.di';
import { PacedClaimStore } from './paced-claim.store';

/**
 * Slots missed by less than this are made up (seconds). Measured: with a quarter of a second
 * (the poll), a paced webhook got 76 % of its 50/s on a machine whose 2 cores other sessions held.
 */
const CATCH_UP_S = 1;

export interface PacedBatch {
  claimed: OwnedDelivery[];
  /** Milliseconds until the next slot of a webhook served now, when it still has deliveries waiting. */
  wakeInMs: number | null;
  /** The intake's watermark the claim held ordered heads at (decision 0511). */
  watermark: number;
}

/**
 * The claim of deliveries to webhooks with options (decision 0503): the statement and its pacing
 * are `PacedClaimStore.claim`'s; this reads the intake's watermark before it (decision 0511) and
 * answers when to look again for a webhook with more waiting.
 */
@Injectable()
export class PacedClaim {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    private readonly intake: IntakeWatermark,
  ) {}

  async claim(limit: number, load: InFlightLoad): Promise<PacedBatch> {
    // Read before the claim: an ordered head past it waits for the earlier events' intake (decision 0511).
    const watermark = await this.intake.current();
    const rows = await PacedClaimStore.claim(this.ds.manager, limit, load, watermark, CATCH_UP_S, this.config);
    const next = rows[0]?.next_in_ms;
    return {
      claimed: rows.map(({ next_in_ms: _, ...d }) => d),
      wakeInMs: next === null || next === undefined ? null : Math.max(1, Math.ceil(Number(next))),
      watermark,
    };
  }
}
