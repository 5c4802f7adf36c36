import { type EntityManager } from 'typeorm';
import { preparedQuery } from '@hub/persistence';
import { type OwnedDelivery, type QueueLimits } from '../delivery/delivery-queue.store';
import { type InFlightLoad } from '../delivery/in-flight';
import { rowsOf } from '../delivery/rows';

/** At most this many webhooks with options are served by one claim (the busiest slots first). */
const WEBHOOKS_PER_CLAIM = 64;

/** A claimed row, with the milliseconds until the next slot of a webhook served now that has more waiting. */
export type PacedRow = OwnedDelivery & { next_in_ms: number | null };

export const PacedClaimStore = {
  /**
   * The claim of deliveries to webhooks with options (decision 0503), one statement for all of them.
   * Each webhook's options row is locked (SKIP LOCKED: another replica serving it is left alone), so
   * the pacing state is shared by every replica and survives restarts. Pacing is a virtual schedule:
   * `next_at` is the next free slot and each delivery takes 1/maxPerSecond of a second. A worker
   * late by less than `catchUpS` (PacedClaim's CATCH_UP_S; busy, or between polls) sends the slots it missed at once, so the
   * rate holds over time; slots from before the oldest waiting delivery was due are not credited, so
   * a webhook that was idle starts at one delivery, no burst. Ordered:
   * only the oldest pending delivery (event order), only when it is due and none is in flight; an
   * ordered webhook that cannot send (its head in flight or waiting for a retry) takes no place
   * among the claim's webhooks (issue 43: 64 such webhooks stalled every other). Webhooks are served
   * least recently served first, and within the in-flight caps of decision 0505.
   */
  async claim(
    m: EntityManager,
    limit: number,
    load: InFlightLoad,
    watermark: number,
    catchUpS: number,
    limits: QueueLimits,
  ): Promise<PacedRow[]> {
    // Prepared, as the plain claim (decision 0510): planning it took several times as long as
    // running it (4.3 ms against 0.7 ms among issue 43's noisy neighbour), once per claim loop.
    return rowsOf<PacedRow>(
      await preparedQuery<PacedRow>(
        m.connection,
        'webhooks-paced-claim',
        `WITH busy AS (SELECT * FROM unnest($4::text[], $5::int[]) AS b(id, n)),
         owners AS (SELECT * FROM unnest($6::text[], $7::int[]) AS b(id, n)),
         o AS (
           SELECT o.webhook_id, o.max_per_second AS rate, o.ordered,
                  $8::int - COALESCE((SELECT b.n FROM busy b WHERE b.id = o.webhook_id), 0) AS room,
                  -- No credit for time nothing was waiting (the oldest deliveries' due_at), nor past CATCH_UP_S.
                  GREATEST(o.next_at, now() - make_interval(secs => $3::float8),
                           (SELECT min(h.due_at) FROM (SELECT d.due_at FROM webhooks.deliveries d
                                                       WHERE d.webhook_id = o.webhook_id AND d.state = 'pending' AND d.paced
                                                       ORDER BY d.event_seq, d.created_at, d.id LIMIT 64) h)) AS slot0
           FROM webhooks.delivery_options o
           WHERE (o.max_per_second IS NOT NULL OR o.ordered) AND (o.max_per_second IS NULL OR o.next_at <= now())
             -- Something to send now: for an ordered webhook its head (due, not in flight), else any due delivery.
             AND CASE WHEN o.ordered
                 THEN (SELECT d.due_at <= now() AND (d.lease_until IS NULL OR d.lease_until < now())
                              AND COALESCE(d.event_seq, 0) <= $10::bigint + 1 FROM webhooks.deliveries d
                       WHERE d.webhook_id = o.webhook_id AND d.state = 'pending' AND d.paced
                       ORDER BY d.event_seq, d.created_at, d.id LIMIT 1) IS TRUE
                 ELSE EXISTS (SELECT 1 FROM webhooks.deliveries d WHERE d.webhook_id = o.webhook_id AND d.state = 'pending' AND d.paced
                              AND d.due_at <= now() AND (d.lease_until IS NULL OR d.lease_until < now())) END
             -- Room under the caps of decision 0505.
             AND COALESCE((SELECT b.n FROM busy b WHERE b.id = o.webhook_id), 0) < $8::int
             AND COALESCE((SELECT x.n FROM owners x WHERE x.id = (SELECT w.owner_id FROM webhooks.webhooks w WHERE w.id = o.webhook_id)), 0) < $9::int
           ORDER BY o.next_at LIMIT ${WEBHOOKS_PER_CLAIM}
           FOR UPDATE OF o SKIP LOCKED),
         a AS (
           SELECT o.*, CASE WHEN o.ordered THEN 1
                            WHEN o.rate IS NULL THEN LEAST($1::int, o.room)
                            ELSE LEAST($1::int, o.room, floor(extract(epoch FROM now() - o.slot0) * o.rate)::int + 1) END AS n
           FROM o),
         picked AS (
           SELECT p.id, a.webhook_id FROM a
           CROSS JOIN LATERAL (
             SELECT d.id, d.due_at, d.lease_until, d.event_seq FROM webhooks.deliveries d
             WHERE d.webhook_id = a.webhook_id AND d.state = 'pending' AND d.paced
               AND (a.ordered OR (d.due_at <= now() AND (d.lease_until IS NULL OR d.lease_until < now())))
             ORDER BY d.event_seq, d.created_at, d.id LIMIT a.n) p
           -- Ordered: the head only, and only when it is due and not in flight (it blocks the rest).
           WHERE p.due_at <= now() AND (p.lease_until IS NULL OR p.lease_until < now())
             -- Ordered: and only once every earlier event went through the intake.
             AND (NOT a.ordered OR COALESCE(p.event_seq, 0) <= $10::bigint + 1)
           LIMIT $1),
         claimed AS (
           UPDATE webhooks.deliveries d SET lease_until = now() + make_interval(secs => $2::float8 / 1000), attempts = d.attempts + 1
           FROM picked c
           WHERE d.id = c.id AND d.state = 'pending' AND (d.lease_until IS NULL OR d.lease_until < now())
           RETURNING d.id, d.event_id, d.webhook_id, d.subject, d.payload, d.attempts, d.recovery_id, d.paced, d.traceparent,
             (extract(epoch FROM d.due_at) * 1000)::float8 AS due_ms,
             (SELECT w.owner_id FROM webhooks.webhooks w WHERE w.id = d.webhook_id) AS owner_id),
         counted AS (SELECT webhook_id, count(*) AS k FROM claimed GROUP BY webhook_id),
         paced AS (
           -- Without a rate, next_at is when the webhook was last served: the oldest goes first next time.
           UPDATE webhooks.delivery_options x
           SET next_at = CASE WHEN a.rate IS NULL THEN now() ELSE a.slot0 + make_interval(secs => c.k / a.rate) END
           FROM a JOIN counted c ON c.webhook_id = a.webhook_id
           WHERE x.webhook_id = a.webhook_id
           RETURNING x.webhook_id, x.next_at, a.rate)
         SELECT c.*, (SELECT min(extract(epoch FROM p.next_at - now()) * 1000) FROM paced p WHERE p.rate IS NOT NULL) AS next_in_ms
         FROM claimed c`,
        [
          limit,
          limits.HUB_WEBHOOK_LEASE_MS,
          catchUpS,
          load.webhookIds,
          load.webhookCounts,
          load.ownerIds,
          load.ownerCounts,
          limits.HUB_WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK,
          limits.maxInFlightPerUser,
          watermark,
        ],
      ),
    );
  },
};
