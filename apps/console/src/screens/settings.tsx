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

/**
 * Each switch of spec 4.1 as a sentence, in groups (decision 0806). A key the hub adds later and
 * this list does not know shows under "Other" as it is named.
 */
const GROUPS: [string, [string, string][]][] = [
  [
    'Discussions and posts',
    [
      ['web_discussions_participating', 'Tell me in my inbox about discussions I take part in'],
      ['web_discussions_watched', 'Tell me in my inbox about discussions on what I watch'],
      ['web_posts_participating', 'Tell me in my inbox about posts I take part in'],
      ['discussions_participating', 'Email me about discussions I take part in'],
      ['discussions_watched', 'Email me about discussions on what I watch'],
      ['posts_participating', 'Email me about posts I take part in'],
    ],
  ],
  [
    'Papers',
    [
      ['arxiv_paper_activity', 'Email me about activity on my papers'],
      ['daily_papers_digest', 'Email me the daily papers digest'],
    ],
  ],
  [
    'My repositories, jobs and account',
    [
      ['gated_user_access_request', 'Email me when someone asks for access to a gated repository'],
      ['repo_release', 'Email me about releases of repositories I watch'],
      ['job_status', 'Email me when my jobs finish or fail'],
      ['inference_endpoint_status', 'Email me when my inference endpoints change state'],
      ['api_inference_sunset', 'Email me before a model I use leaves the inference API'],
      ['secret_detected', 'Email me when a secret is found in one of my repositories'],
      ['locked_out', 'Email me when my account is locked out'],
    ],
  ],
  [
    'Organizations and people',
    [
      ['org_request', 'Email me about requests to join my organizations'],
      ['org_suggestions', 'Suggest organizations I could join'],
      ['org_verified_suggestions', 'Suggest verified organizations I could join'],
      ['org_suggestions_to_create', 'Suggest organizations I could create'],
      ['user_follows', 'Email me when someone follows me'],
    ],
  ],
  [
    'News and launches',
    [
      ['announcements', 'Email me announcements'],
      ['launch_spaces', 'Email me about launches of Spaces'],
      ['launch_autonlp', 'Email me about launches of AutoTrain'],
      ['launch_training_cluster', 'Email me about launches of training clusters'],
      ['launch_prepaid_credits', 'Email me about prepaid credits'],
    ],
  ],
];
const KNOWN = new Set(GROUPS.flatMap(([, keys]) => keys.map(([k]) => k)));

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
      {settings.data && (
        <section class="card" aria-labelledby="notify-title">
          <h2 id="notify-title">Notifications</h2>
          {[
            ...GROUPS,
            [
              'Other',
              Object.keys(settings.data.notifications)
                .filter((k) => !KNOWN.has(k))
                .map((k): [string, string] => [k, k]),
            ] as [string, [string, string][]],
          ].map(([group, keys]) => {
            const values = settings.data?.notifications ?? {};
            const shown = keys.filter(([k]) => typeof values[k] === 'boolean');
            return shown.length === 0 ? null : (
              <fieldset key={group}>
                <legend>{group}</legend>
                {shown.map(([key, sentence]) => (
                  <label key={key}>
                    <input
                      type="checkbox"
                      checked={values[key] === true}
                      disabled={action.busy}
                      onChange={() => void flip(key, values[key] !== true)}
                      class="switch"
                      data-key={key}
                    />{' '}
                    {sentence}
                  </label>
                ))}
              </fieldset>
            );
          })}
        </section>
      )}
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
