import { useState } from 'preact/hooks';
import { api } from '../api';
import { Screen, Status, useAction, useLoad } from '../ui';

interface Settings {
  notifications: Record<string, boolean | string>;
  prepaidAmount: string | null;
}
interface WatchItem {
  id: string;
  type: 'org' | 'user' | 'repo';
}

/** Notification switches and the watch list (spec 4.1's settings). */
export function SettingsScreen(): preact.JSX.Element {
  const settings = useLoad(() => api<Settings>('GET', '/api/settings/notifications'), []);
  const watch = useLoad(() => api<{ watched: WatchItem[] }>('GET', '/api/settings/watch'), []);
  const action = useAction();
  const [item, setItem] = useState<WatchItem>({ id: '', type: 'repo' });
  const flip = (key: string, value: boolean): Promise<void> =>
    action.run(async () => {
      await api('PATCH', '/api/settings/notifications', { notifications: { [key]: value } });
      settings.reload();
    }, 'Settings saved');
  const change = (body: { add?: WatchItem[]; delete?: WatchItem[] }, done: string): Promise<void> =>
    action.run(async () => {
      await api('PATCH', '/api/settings/watch', body);
      watch.reload();
    }, done);
  return (
    <Screen title="Settings">
      <Status error={action.error ?? settings.error ?? watch.error} message={action.message} />
      <fieldset class="card">
        <legend>Notifications</legend>
        {Object.entries(settings.data?.notifications ?? {})
          .filter((e): e is [string, boolean] => typeof e[1] === 'boolean')
          .map(([key, on]) => (
            <label key={key}>
              <input type="checkbox" checked={on} onChange={() => void flip(key, !on)} class="switch" /> {key}
            </label>
          ))}
      </fieldset>
      <section class="card" aria-labelledby="watch-title">
        <h2 id="watch-title">Watched items</h2>
        <ul>
          {watch.data?.watched.map((w) => (
            <li key={`${w.type}:${w.id}`}>
              {w.type} {w.id}{' '}
              <button type="button" onClick={() => void change({ delete: [w] }, 'Removed')}>
                Remove<span class="sr-only"> {w.id}</span>
              </button>
            </li>
          ))}
        </ul>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void change({ add: [item] }, 'Added').then(() => setItem({ ...item, id: '' }));
          }}
        >
          <label>
            Type
            <select
              value={item.type}
              onChange={(e) => setItem({ ...item, type: e.currentTarget.value as WatchItem['type'] })}
            >
              <option value="repo">repository</option>
              <option value="user">user</option>
              <option value="org">organization</option>
            </select>
          </label>
          <label>
            Name <input required value={item.id} onInput={(e) => setItem({ ...item, id: e.currentTarget.value })} />
          </label>
          <button type="submit">Watch</button>
        </form>
      </section>
    </Screen>
  );
}
