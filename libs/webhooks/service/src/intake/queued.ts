import { type ClaimedDelivery, type MatchInput, type QueuedRow } from '../delivery/delivery-queue.store';

/**
 * What the intake queued for one event: how many deliveries, the owners of the webhooks whose rows
 * wait for a claim, and the rows leased to this process at once (decision 0510).
 */
export interface Queued {
  count: number;
  owners: string[];
  leased: ClaimedDelivery[];
}

/** The rows one intake statement queued (`DeliveryQueueStore.enqueue`), per event id. */
export function queuedByEvent(events: MatchInput[], rows: QueuedRow[]): Map<string, Queued> {
  const byEvent = new Map(events.map((e) => [e.eventId, e]));
  const queued = new Map<string, Queued>();
  // A set per event: one event may have 1,000 webhooks of as many owners (issue 40, fan-out).
  const owners = new Map<string, Set<string>>();
  const now = Date.now();
  for (const r of rows) {
    let q = queued.get(r.event_id);
    if (!q) queued.set(r.event_id, (q = { count: 0, owners: [], leased: [] }));
    q.count++;
    const e = byEvent.get(r.event_id);
    if (r.leased && e)
      q.leased.push({
        id: r.id,
        event_id: r.event_id,
        webhook_id: r.webhook_id,
        subject: e.subject,
        payload: e.payload,
        attempts: 1,
        recovery_id: null,
        paced: false,
        traceparent: e.traceparent ?? null,
        due_ms: now,
      });
    // The owners of the rows left for a claim (the worker's wake-up, decision 0505).
    else {
      let seen = owners.get(r.event_id);
      if (!seen) owners.set(r.event_id, (seen = new Set()));
      if (!seen.has(r.owner_id)) {
        seen.add(r.owner_id);
        q.owners.push(r.owner_id);
      }
    }
  }
  return queued;
}
