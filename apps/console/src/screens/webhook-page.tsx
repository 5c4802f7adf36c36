import { useState } from 'preact/hooks';
import { api } from '../api';
import { go, type Route } from '../router';
import { Screen, Status, useAction, useLoad, when } from '../ui';
import { targetOf, type Webhook, WebhookForm } from './webhook-form';
import { stateOf } from './webhooks';

interface Log {
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
interface Recovery {
  id: string;
  state: string;
  queued: number;
  sent: number;
  succeeded: number;
  failed: number;
}

const FILTERS = ['status', 'httpStatus', 'event', 'repo', 'since', 'q'] as const;

export function WebhookPage(props: { id: string; route: Route }): preact.JSX.Element {
  const base = `/api/settings/webhooks/${props.id}`;
  const filters = Object.fromEntries(FILTERS.map((k) => [k, props.route.query.get(k) ?? undefined]));
  const query = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => !!e[1])).toString();
  const hook = useLoad(() => api<{ webhook: Webhook }>('GET', base), [props.id]);
  const logs = useLoad(() => api<Log[]>('GET', `${base}/logs?limit=50${query ? `&${query}` : ''}`), [props.id, query]);
  const action = useAction();
  const [recovery, setRecovery] = useState<Recovery | null>(null);
  const [since, setSince] = useState('');

  const replay = (log: Log): Promise<void> =>
    action.run(async () => {
      const answer = await api<{ status: number }>('POST', `${base}/replay/${log.id}`);
      logs.reload();
      if (answer.status < 200 || answer.status >= 300) throw new Error(`Replay answered ${answer.status}`);
    }, 'Replayed: the receiver answered 2xx');
  const toggle = (w: Webhook): Promise<void> =>
    action.run(
      async () => {
        await api('POST', `${base}/${w.disabled ? 'enable' : 'disable'}`);
        hook.reload();
      },
      w.disabled ? 'Enabled' : 'Disabled',
    );
  const recover = (e: Event): void => {
    e.preventDefault();
    void action.run(async () => {
      let r = await api<Recovery>('POST', `${base}/recover`, { since: new Date(since).toISOString() });
      setRecovery(r);
      while (r.state === 'queued' || r.state === 'running') {
        await new Promise((done) => setTimeout(done, 1000));
        r = await api<Recovery>('GET', `${base}/recoveries/${r.id}`);
        setRecovery(r);
      }
      logs.reload();
    }, 'Recovery finished');
  };
  const filter = (e: Event): void => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    go(`/webhooks/${props.id}`, Object.fromEntries(FILTERS.map((k) => [k, String(form.get(k) ?? '')])));
  };

  const w = hook.data?.webhook;
  return (
    <Screen title={`Webhook ${w ? targetOf(w) : props.id}`}>
      {w && (
        <p>
          State: <strong>{stateOf(w)}</strong> · last trigger {when(w.lastTriggerAt)}{' '}
          <button type="button" onClick={() => void toggle(w)}>
            {w.disabled ? 'Enable' : 'Disable'}
          </button>
        </p>
      )}
      {w?.disabled && <p>Deliveries, recovered ones included, wait while the webhook is not active.</p>}
      <Status error={action.error ?? hook.error ?? logs.error} message={action.message} />
      <form class="filters" onSubmit={filter} aria-label="Filter deliveries">
        <label>
          Outcome
          <select name="status" value={filters.status ?? ''}>
            <option value="">any</option>
            <option value="succeeded">succeeded</option>
            <option value="failed">failed</option>
            <option value="pending">pending</option>
          </select>
        </label>
        <label>
          HTTP status
          <input name="httpStatus" inputMode="numeric" value={filters.httpStatus ?? ''} />
        </label>
        <label>
          Event
          <input name="event" value={filters.event ?? ''} placeholder="repo.content" />
        </label>
        <label>
          Repository
          <input name="repo" value={filters.repo ?? ''} />
        </label>
        <label>
          Search
          <input name="q" type="search" value={filters.q ?? ''} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <form class="card" onSubmit={recover}>
        <label>
          Recover failed deliveries since
          <input type="datetime-local" required value={since} onInput={(e) => setSince(e.currentTarget.value)} />
        </label>
        <button type="submit">Recover</button>
        {recovery && (
          <p aria-live="polite">
            Recovery {recovery.state}: {recovery.sent} of {recovery.queued} sent, {recovery.succeeded} succeeded,{' '}
            {recovery.failed} failed
          </p>
        )}
      </form>
      <table>
        <caption>Delivery log</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Event</th>
            <th scope="col">Trigger</th>
            <th scope="col">HTTP status</th>
            <th scope="col">Details</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {logs.data?.map((l) => (
            <tr key={l.id} class={ok(l) ? 'ok' : 'failed'}>
              <td>{when(l.createdAt)}</td>
              <td>{eventOf(l)}</td>
              <td>
                {l.trigger} #{l.attempt}
              </td>
              <td>{l.status ?? `none${l.error ? ` (${l.error})` : ''}`}</td>
              <td>
                <details>
                  <summary>Request and response</summary>
                  <pre>{JSON.stringify({ headers: l.requestHeaders, payload: l.payload }, null, 2)}</pre>
                  <pre>{JSON.stringify(l.responseHeaders, null, 2)}</pre>
                  <pre>{l.responseBody}</pre>
                </details>
              </td>
              <td>
                <button type="button" onClick={() => void replay(l)}>
                  Replay<span class="sr-only"> delivery {l.id}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {w && <WebhookForm webhook={w} onSaved={hook.reload} />}
    </Screen>
  );
}

const ok = (l: Log): boolean => l.status !== null && l.status >= 200 && l.status < 300;

function eventOf(l: Log): string {
  const e = l.payload['event'] as { scope?: string; action?: string } | undefined;
  return e ? `${e.scope ?? ''}.${e.action ?? ''}` : '';
}
