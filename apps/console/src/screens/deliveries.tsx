import { TableBox, when } from '../ui';

/** One attempt in the delivery log (`GET …/logs`, newest first). */
export interface Log {
  id: string;
  deliveryId: string;
  trigger: string;
  attempt: number;
  requestHeaders: Record<string, string>;
  payload: Record<string, unknown>;
  status: number | null;
  responseHeaders: Record<string, string>;
  responseBody: string;
  durationMs: number;
  error: string | null;
  createdAt: string;
}

/** What became of one delivery (one event to this webhook), from its attempts. */
export type DeliveryState = 'delivered' | 'retrying' | 'spent';

/** One event once, with its attempts oldest first. */
export interface Delivery {
  id: string;
  event: string;
  attempts: Log[];
  last: Log;
  state: DeliveryState;
}

export const ok = (l: Log): boolean => l.status !== null && l.status >= 200 && l.status < 300;

function eventOf(l: Log): string {
  const e = l.payload['event'] as { scope?: string; action?: string } | undefined;
  return e ? `${e.scope ?? ''}.${e.action ?? ''}` : '';
}

/**
 * The attempts grouped per delivery (their `deliveryId`, the webhook-id header), newest delivery
 * first. `pending` holds the deliveries still queued for another try (`status=pending`): a failed
 * one that is not there has used up its retries, and is what a recovery resends.
 */
export function groupDeliveries(logs: Log[], pending: ReadonlySet<string>): Delivery[] {
  const byId = new Map<string, Log[]>();
  for (const l of logs) byId.set(l.deliveryId, [...(byId.get(l.deliveryId) ?? []), l]);
  return [...byId].map(([id, newestFirst]) => {
    const last = newestFirst[0];
    const state: DeliveryState = ok(last) ? 'delivered' : pending.has(id) ? 'retrying' : 'spent';
    return { id, event: eventOf(last), attempts: [...newestFirst].reverse(), last, state };
  });
}

/** The scheduled attempts made so far (replays and recoveries are extra sends, not retries). */
const tries = (d: Delivery): number =>
  Math.max(0, ...d.attempts.filter((a) => a.trigger === 'scheduled').map((a) => a.attempt));

export function stateText(d: Delivery): string {
  if (d.state === 'delivered') return d.last.trigger === 'scheduled' ? 'delivered' : `delivered (${d.last.trigger})`;
  if (d.state === 'retrying') return `attempt ${tries(d)} failed, next try queued`;
  return `retries used up after ${tries(d)} attempts`;
}

function Attempt(props: { log: Log }): preact.JSX.Element {
  const l = props.log;
  return (
    <li class={ok(l) ? 'ok' : 'failed'}>
      {l.trigger} #{l.attempt} · <strong>{l.status ?? 'no answer'}</strong>
      {l.error ? ` (${l.error})` : ''} · {l.durationMs} ms · {when(l.createdAt)}
      <details>
        <summary>
          Request and response<span class="sr-only"> of attempt {l.id}</span>
        </summary>
        <pre>{JSON.stringify({ headers: l.requestHeaders, payload: l.payload }, null, 2)}</pre>
        <pre>{JSON.stringify(l.responseHeaders, null, 2)}</pre>
        <pre>{l.responseBody}</pre>
      </details>
    </li>
  );
}

/** One row per delivery, its attempts inside; failures in red; Replay sends its payload once more. */
export function Deliveries(props: {
  deliveries: Delivery[];
  busy: boolean;
  onReplay: (l: Log) => void;
}): preact.JSX.Element {
  return (
    <TableBox label="Deliveries">
      <table class="deliveries">
        <caption>Deliveries (each event once, its attempts inside)</caption>
        <thead>
          <tr>
            <th scope="col">Last attempt</th>
            <th scope="col">Event</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {props.deliveries.map((d) => (
            <tr key={d.id} class={d.state === 'delivered' ? 'ok' : 'failed'}>
              <td>{when(d.last.createdAt)}</td>
              <td>
                {d.event}
                <br />
                <small>
                  delivery <code>{d.id}</code>
                </small>
              </td>
              <td class="state">{stateText(d)}</td>
              <td>
                <details>
                  <summary>
                    {d.attempts.length} {d.attempts.length === 1 ? 'attempt' : 'attempts'}, last{' '}
                    {d.last.status ?? 'no answer'}
                    <span class="sr-only"> of delivery {d.id}</span>
                  </summary>
                  <ol class="attempts">
                    {d.attempts.map((l) => (
                      <Attempt key={l.id} log={l} />
                    ))}
                  </ol>
                </details>
              </td>
              <td>
                <button type="button" disabled={props.busy} onClick={() => props.onReplay(d.last)}>
                  Replay<span class="sr-only"> delivery {d.id}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}
