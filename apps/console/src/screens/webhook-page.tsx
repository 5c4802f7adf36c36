import { api } from '../api';
import { go, type Route } from '../router';
import { Screen, Status, useAction, useLoad, when } from '../ui';
import { Deliveries, type DeliveryInfo, deliveryIds, groupDeliveries, type Log } from './deliveries';
import { RecoveryForm } from './webhook-recovery';
import { targetOf, type Webhook, WebhookForm } from './webhook-form';
import { stateOf } from './webhooks';

const FILTERS = ['status', 'httpStatus', 'event', 'repo', 'since', 'q'] as const;

export function WebhookPage(props: { id: string; route: Route }): preact.JSX.Element {
  const base = `/api/settings/webhooks/${props.id}`;
  const filters = Object.fromEntries(FILTERS.map((k) => [k, props.route.query.get(k) ?? undefined]));
  const query = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => !!e[1])).toString();
  const hook = useLoad(() => api<{ webhook: Webhook }>('GET', base), [props.id]);
  // The last 100 attempts, then their deliveries' queue rows (decision 0804): together they say,
  // per delivery, whether it is delivered, when its next attempt is, or that its retries are used up.
  const logs = useLoad(async () => {
    const attempts = await api<Log[]>('GET', `${base}/logs?limit=100${query ? `&${query}` : ''}`);
    const ids = deliveryIds(attempts);
    const infos = ids.length
      ? await api<DeliveryInfo[]>('GET', `${base}/deliveries?ids=${ids.map(encodeURIComponent).join(',')}`)
      : [];
    return groupDeliveries(attempts, infos);
  }, [props.id, query]);
  const action = useAction();

  const replay = (log: Log): Promise<void> =>
    action.run(async () => {
      const answer = await api<{ status: number }>('POST', `${base}/replay/${log.id}`);
      logs.reload();
      if (answer.status < 200 || answer.status >= 300) throw new Error(`Replay answered ${answer.status}`);
    }, 'Replayed: the receiver answered 2xx');
  // GitHub's ping (decision 0509): one signed test event now, logged as a `test` attempt.
  const sendTest = (): Promise<void> =>
    action.run(async () => {
      const answer = await api<{ status: number }>('POST', `${base}/test`);
      logs.reload();
      if (answer.status === 0) throw new Error('Test event: the receiver did not answer');
      if (answer.status < 200 || answer.status >= 300)
        throw new Error(`Test event: the receiver answered ${answer.status}`);
    }, 'Test event sent: the receiver answered 2xx');
  const toggle = (w: Webhook): Promise<void> =>
    action.run(
      async () => {
        await api('POST', `${base}/${w.disabled ? 'enable' : 'disable'}`);
        hook.reload();
      },
      w.disabled ? 'Enabled' : 'Disabled',
    );
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
          <button type="button" disabled={action.busy} onClick={() => void toggle(w)}>
            {w.disabled ? 'Enable' : 'Disable'}
          </button>{' '}
          {w.url && (
            <button type="button" disabled={action.busy} onClick={() => void sendTest()}>
              Send test event
            </button>
          )}
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
      <RecoveryForm base={base} deliveries={logs.data ?? []} onDone={logs.reload} />
      {logs.data && logs.data.length === 0 && <p>No deliveries{query ? ' match these filters' : ' yet'}.</p>}
      <Deliveries deliveries={logs.data ?? []} busy={action.busy} onReplay={(l) => void replay(l)} />
      {w && <WebhookForm webhook={w} onSaved={hook.reload} />}
    </Screen>
  );
}
