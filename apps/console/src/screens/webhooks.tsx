import { api } from '../api';
import { useConfirm } from '../confirm';
import { href } from '../router';
import { Screen, Status, TableBox, useAction, useLoad, when } from '../ui';
import { targetOf, type Webhook, WebhookForm } from './webhook-form';

interface Log {
  status: number | null;
}

export const stateOf = (w: Webhook): string =>
  w.disabled === 'suspended-after-failure' ? 'suspended after failures' : w.disabled ? 'disabled' : 'active';

/** Success rate of the last 20 attempts, from the delivery log. */
function Rate(props: { id: string }): preact.JSX.Element {
  const logs = useLoad(() => api<Log[]>('GET', `/api/settings/webhooks/${props.id}/logs?limit=20`), [props.id]);
  if (!logs.data) return <span>…</span>;
  if (logs.data.length === 0) return <span>no deliveries</span>;
  const ok = logs.data.filter((l) => l.status !== null && l.status >= 200 && l.status < 300).length;
  return (
    <span>
      {Math.round((100 * ok) / logs.data.length)} % of last {logs.data.length}
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
      <WebhookForm onSaved={list.reload} />
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
                <td>{stateOf(w)}</td>
                <td>{when(w.lastTriggerAt)}</td>
                <td>
                  <Rate id={w.id} />
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
