import { useState } from 'preact/hooks';
import { api } from '../api';
import { href } from '../router';
import { Screen, Status, useAction, useLoad, when } from '../ui';

export interface Webhook {
  id: string;
  url?: string;
  disabled: boolean | 'suspended-after-failure';
  watched: { type: string; name: string }[];
  domains: string[];
  hasSecret: boolean;
  lastTriggerAt?: string;
}
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
  const remove = (w: Webhook): Promise<void> =>
    action.run(async () => {
      await api('DELETE', `/api/settings/webhooks/${w.id}`);
      list.reload();
    }, 'Deleted');
  return (
    <Screen title="Webhooks">
      <WebhookForm onSaved={list.reload} />
      <Status error={action.error ?? list.error} message={action.message} />
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
                <a href={href(`/webhooks/${w.id}`)}>{w.url ?? 'job'}</a>
              </td>
              <td>{w.watched.map((x) => `${x.type} ${x.name}`).join(', ')}</td>
              <td>{stateOf(w)}</td>
              <td>{when(w.lastTriggerAt)}</td>
              <td>
                <Rate id={w.id} />
              </td>
              <td>
                <button type="button" onClick={() => void toggle(w)}>
                  {w.disabled ? 'Enable' : 'Disable'}
                </button>
                <button type="button" onClick={() => void remove(w)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Screen>
  );
}

/** Create, or edit when given a webhook: spec 4.6's fields; the secret is write-only (never shown). */
export function WebhookForm(props: { webhook?: Webhook; onSaved: () => void }): preact.JSX.Element {
  const w = props.webhook;
  const [url, setUrl] = useState(w?.url ?? '');
  const [watched, setWatched] = useState(w?.watched.map((x) => `${x.type}:${x.name}`).join(', ') ?? '');
  const [domains, setDomains] = useState(w?.domains ?? ['repo', 'discussion']);
  const [secret, setSecret] = useState('');
  const action = useAction();
  const save = (e: Event): void => {
    e.preventDefault();
    const body = {
      url,
      domains,
      watched: watched
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => {
          const [type, ...name] = s.split(':');
          return { type, name: name.join(':') };
        }),
      ...(secret ? { secret } : {}),
    };
    void action.run(
      async () => {
        await api('POST', `/api/settings/webhooks${w ? `/${w.id}` : ''}`, body);
        setSecret('');
        props.onSaved();
      },
      w ? 'Saved' : 'Webhook created',
    );
  };
  const toggle = (d: string): void =>
    setDomains(domains.includes(d) ? domains.filter((x) => x !== d) : [...domains, d]);
  return (
    <form class="card" onSubmit={save}>
      <h2>{w ? 'Edit webhook' : 'New webhook'}</h2>
      <label>
        Target URL
        <input type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      </label>
      <label>
        Watched items
        <input
          required
          value={watched}
          placeholder="model:owner/name, user:name"
          aria-describedby="watched-help"
          onInput={(e) => setWatched(e.currentTarget.value)}
        />
      </label>
      <small id="watched-help">type:name, comma separated (types: model, dataset, space, user, org)</small>
      <fieldset>
        <legend>Domains</legend>
        {['repo', 'discussion'].map((d) => (
          <label key={d} class="inline">
            <input type="checkbox" checked={domains.includes(d)} onChange={() => toggle(d)} /> {d}
          </label>
        ))}
      </fieldset>
      <label>
        Secret {w?.hasSecret ? '(set; type a new one to replace it)' : '(optional)'}
        <input
          type="password"
          autoComplete="new-password"
          value={secret}
          onInput={(e) => setSecret(e.currentTarget.value)}
        />
      </label>
      <button type="submit">{w ? 'Save webhook' : 'Create webhook'}</button>
      <Status error={action.error} message={action.message} />
    </form>
  );
}
