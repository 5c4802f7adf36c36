import { useState } from 'preact/hooks';
import { api } from '../api';
import { useConfirm } from '../confirm';
import { href } from '../router';
import { Screen, Status, TableBox, useAction, useLoad, when } from '../ui';
import { targetOf, type Webhook, WebhookForm } from './webhook-form';

interface Log {
  id: string;
  status: number | null;
  createdAt: string;
}

export const stateOf = (w: Webhook): string =>
  w.disabled === 'suspended-after-failure' ? 'suspended after failures' : w.disabled ? 'disabled' : 'active';

const good = (l: Log): boolean => l.status !== null && l.status >= 200 && l.status < 300;

/** The last 20 attempts at a glance: a strip of marks, oldest to newest, and the success rate. */
function Health(props: { id: string }): preact.JSX.Element {
  const logs = useLoad(() => api<Log[]>('GET', `/api/settings/webhooks/${props.id}/logs?limit=20`), [props.id]);
  if (!logs.data) return <span>…</span>;
  if (logs.data.length === 0) return <span>no deliveries</span>;
  const ok = logs.data.filter(good).length;
  const rate = `${Math.round((100 * ok) / logs.data.length)} % of last ${logs.data.length}`;
  return (
    <span class="health">
      <span class="strip" role="img" aria-label={`${ok} of the last ${logs.data.length} attempts succeeded`}>
        {[...logs.data].reverse().map((l) => (
          <span key={l.id} class={good(l) ? 'mark ok' : 'mark failed'} title={`${l.status ?? 'no answer'}`} />
        ))}
      </span>
      <span>{rate}</span>
    </span>
  );
}

export function Webhooks(): preact.JSX.Element {
  const list = useLoad(() => api<Webhook[]>('GET', '/api/settings/webhooks'), []);
  const action = useAction();
  const toggle = (w: Webhook): Promise<void> =>
    action.run(
      async () => {
        await api('POST', `/api/settings/webhooks/${w.id}/${w.disabled ? 'enable' : 'disable'}`);
        list.reload();
      },
      w.disabled ? 'Enabled' : 'Disabled',
    );
  const confirm = useConfirm();
  const [creating, setCreating] = useState(false);
  const remove = async (w: Webhook): Promise<void> => {
    const sure = await confirm.ask({
      title: 'Delete this webhook?',
      body: `${targetOf(w)} stops receiving events, and its delivery log goes with it. This cannot be undone.`,
      confirm: 'Delete webhook',
    });
    if (sure)
      await action.run(async () => {
        await api('DELETE', `/api/settings/webhooks/${w.id}`);
        list.reload();
      }, 'Deleted');
  };
  return (
    <Screen title="Webhooks">
      <button type="button" aria-expanded={creating} onClick={() => setCreating(!creating)}>
        {creating ? 'Close the form' : 'New webhook'}
      </button>
      {creating && <WebhookForm onSaved={list.reload} />}
      <Status error={action.error ?? list.error} message={action.message} />
      {confirm.dialog}
      <TableBox label="Your webhooks">
        <table>
          <caption>Your webhooks</caption>
          <thead>
            <tr>
              <th scope="col">Target</th>
              <th scope="col">Watching</th>
              <th scope="col">State</th>
              <th scope="col">Last trigger</th>
              <th scope="col">Recent success</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.map((w) => (
              <tr key={w.id}>
                <td>
                  <a href={href(`/webhooks/${w.id}`)}>{targetOf(w)}</a>
                </td>
                <td>{w.watched.map((x) => `${x.type} ${x.name}`).join(', ')}</td>
                <td>
                  <span class={`pill ${w.disabled ? 'off' : 'on'}`}>{stateOf(w)}</span>
                </td>
                <td>{when(w.lastTriggerAt)}</td>
                <td>
                  <Health id={w.id} />
                </td>
                <td>
                  <button type="button" disabled={action.busy} onClick={() => void toggle(w)}>
                    {w.disabled ? 'Enable' : 'Disable'}
                  </button>
                  <button type="button" disabled={action.busy} onClick={() => void remove(w)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableBox>
    </Screen>
  );
}
