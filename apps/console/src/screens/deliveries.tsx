import { useState } from 'preact/hooks';
import { exact, TableBox, when } from '../ui';

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

/** Where a delivery's retry schedule stands (`GET …/deliveries`, decision 0804). */
export interface DeliveryInfo {
  id: string;
  state: 'pending' | 'delivered' | 'failed' | 'dropped';
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: string | null;
}

/** What became of one delivery (one event to this webhook), from its attempts and its queue row. */
export type DeliveryState = 'delivered' | 'retrying' | 'spent' | 'dropped';

/** One event once, with its attempts oldest first. */
export interface Delivery {
  id: string;
  event: string;
  attempts: Log[];
  last: Log;
  state: DeliveryState;
  info?: DeliveryInfo;
}

export const ok = (l: Log): boolean => l.status !== null && l.status >= 200 && l.status < 300;

function eventOf(l: Log): string {
  const e = l.payload['event'] as { scope?: string; action?: string } | undefined;
  return e ? `${e.scope ?? ''}.${e.action ?? ''}` : '';
}

/** The delivery ids of these attempts, newest delivery first. */
export function deliveryIds(logs: Log[]): string[] {
  return [...new Set(logs.map((l) => l.deliveryId))];
}

/**
 * The attempts grouped per delivery (their `deliveryId`, the webhook-id header), newest delivery
 * first, each with its queue row: a failed one still `pending` is being retried; one `failed` has
 * used up its retries, and is what a recovery resends.
 */
export function groupDeliveries(logs: Log[], infos: DeliveryInfo[]): Delivery[] {
  const byId = new Map<string, Log[]>();
  for (const l of logs) byId.set(l.deliveryId, [...(byId.get(l.deliveryId) ?? []), l]);
  const info = new Map(infos.map((i) => [i.id, i]));
  return [...byId].map(([id, newestFirst]) => {
    const last = newestFirst[0];
    const row = info.get(id);
    const state: DeliveryState = ok(last)
      ? 'delivered'
      : row?.state === 'pending'
        ? 'retrying'
        : row?.state === 'dropped'
          ? 'dropped'
          : 'spent';
    return { id, event: eventOf(last), attempts: [...newestFirst].reverse(), last, state, info: row };
  });
}

/** The scheduled attempts made so far (replays and recoveries are extra sends, not retries). */
const tries = (d: Delivery): number =>
  Math.max(0, ...d.attempts.filter((a) => a.trigger === 'scheduled').map((a) => a.attempt));

export function stateText(d: Delivery): preact.JSX.Element | string {
  if (d.state === 'delivered') return d.last.trigger === 'scheduled' ? 'delivered' : `delivered (${d.last.trigger})`;
  const k = d.info?.attempts ?? tries(d);
  const ofN = d.info ? ` of ${d.info.maxAttempts}` : '';
  if (d.state === 'dropped') return `dropped after attempt ${k}${ofN}: the webhook was off`;
  if (d.state === 'spent') return `attempt ${k}${ofN} failed, retries used up`;
  const next = d.info?.nextAttemptAt;
  return next ? (
    <>
      attempt {k}
      {ofN} failed, next at{' '}
      <time dateTime={next} title={exact(next)}>
        {new Date(next).toLocaleTimeString()}
      </time>
    </>
  ) : (
    `attempt ${k}${ofN} failed, next try queued`
  );
}

type Tab = 'request' | 'response';

/** Copies a text, and says so (or why not) next to the button. */
function Copy(props: { text: string; what: string }): preact.JSX.Element {
  const [said, setSaid] = useState('');
  const copy = (): void => {
    navigator.clipboard.writeText(props.text).then(
      () => setSaid('Copied'),
      () => setSaid('Copy failed: select the text instead'),
    );
  };
  return (
    <p class="copy">
      <button type="button" onClick={copy}>
        Copy {props.what}
      </button>{' '}
      <span role="status">{said}</span>
    </p>
  );
}

/** An attempt's request and response, a tab each, each with its copy button. */
function Exchange(props: { log: Log }): preact.JSX.Element {
  const l = props.log;
  const [tab, setTab] = useState<Tab>('request');
  const id = `x-${l.id}`;
  const request = `${Object.entries(l.requestHeaders)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n\n${JSON.stringify(l.payload, null, 2)}`;
  const response =
    l.status === null
      ? `no answer${l.error ? `: ${l.error}` : ''}`
      : `HTTP ${l.status}\n${Object.entries(l.responseHeaders)
          .map(([k, v]) => `${k}: ${v}`)
          .join('\n')}\n\n${l.responseBody}`;
  const tabs: [Tab, string][] = [
    ['request', 'Request'],
    ['response', 'Response'],
  ];
  return (
    <div class="exchange">
      <div role="tablist" aria-label={`Attempt ${l.attempt} (${l.trigger})`}>
        {tabs.map(([t, name]) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`${id}-${t}-tab`}
            aria-selected={tab === t}
            aria-controls={`${id}-${t}`}
            tabIndex={tab === t ? 0 : -1}
            onClick={() => setTab(t)}
          >
            {name}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-${tab}`} aria-labelledby={`${id}-${tab}-tab`}>
        <Copy text={tab === 'request' ? request : response} what={tab} />
        <pre>{tab === 'request' ? request : response}</pre>
      </div>
    </div>
  );
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
        <Exchange log={l} />
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
            <tr key={d.id} class={d.state === 'delivered' ? 'ok' : d.state === 'retrying' ? 'retrying' : 'failed'}>
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
