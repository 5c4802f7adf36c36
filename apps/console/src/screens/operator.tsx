import { useState } from 'preact/hooks';
import { api } from '../api';
import { type Route } from '../router';
import { Screen, Status, useAction } from '../ui';
import { OperatorLists } from './operator-lists';

/** The admin API for an operator: lists of users, tokens and organizations; make them (a token shown once), members, a test event. */
export function Operator(props: { route: Route }): preact.JSX.Element {
  const action = useAction();
  const [shown, setShown] = useState('');
  const [version, setVersion] = useState(0);
  const submit =
    (make: (f: FormData) => Promise<unknown>, done: string) =>
    (e: Event): void => {
      e.preventDefault();
      const form = e.currentTarget as HTMLFormElement;
      void action.run(async () => {
        await make(new FormData(form));
        form.reset();
        setVersion((n) => n + 1);
      }, done);
    };
  const v = (f: FormData, k: string): string => String(f.get(k) ?? '').trim();
  return (
    <Screen title="Operator">
      <OperatorLists route={props.route} version={version} />
      <h2>Create</h2>
      <Status error={action.error} message={action.message} />
      {shown && <NewToken token={shown} />}
      <div class="grid">
        <form
          class="card"
          onSubmit={submit(
            (f) => api('POST', '/admin/users', { name: v(f, 'name'), email: v(f, 'email') }),
            'User created',
          )}
        >
          <h3>New user</h3>
          <label>
            User name <input name="name" required />
          </label>
          <label>
            E-mail <input name="email" type="email" required />
          </label>
          <button type="submit">Create user</button>
        </form>
        <form
          class="card"
          onSubmit={submit(async (f) => {
            const t = await api<{ token: string }>('POST', `/admin/users/${encodeURIComponent(v(f, 'user'))}/tokens`, {
              role: v(f, 'role'),
            });
            setShown(t.token);
          }, 'Token created')}
        >
          <h3>New token</h3>
          <label>
            For user <input name="user" required />
          </label>
          <label>
            Role
            <select name="role">
              <option value="write">write</option>
              <option value="read">read</option>
            </select>
          </label>
          <button type="submit">Create token</button>
        </form>
        <form
          class="card"
          onSubmit={submit(
            (f) =>
              api('POST', '/admin/organizations', { name: v(f, 'org'), plan: v(f, 'plan'), admins: [v(f, 'admin')] }),
            'Organization created',
          )}
        >
          <h3>New organization</h3>
          <label>
            Name <input name="org" required />
          </label>
          <label>
            Plan
            <select name="plan">
              <option value="team">team</option>
              <option value="enterprise">enterprise</option>
            </select>
          </label>
          <label>
            First admin (user name) <input name="admin" required />
          </label>
          <button type="submit">Create organization</button>
        </form>
        <form
          class="card"
          onSubmit={submit(
            (f) =>
              api('POST', `/admin/organizations/${encodeURIComponent(v(f, 'org'))}/members`, {
                user: v(f, 'user'),
                role: v(f, 'role'),
              }),
            'Member added',
          )}
        >
          <h3>Add a member</h3>
          <label>
            Organization <input name="org" required />
          </label>
          <label>
            User <input name="user" required />
          </label>
          <label>
            Role
            <select name="role">
              <option value="read">read</option>
              <option value="contributor">contributor</option>
              <option value="write">write</option>
              <option value="admin">admin</option>
            </select>
          </label>
          <button type="submit">Add member</button>
        </form>
        <form
          class="card"
          onSubmit={submit(
            (f) =>
              api('POST', '/admin/events', {
                subject: v(f, 'subject'),
                payload: JSON.parse(v(f, 'payload')) as unknown,
              }),
            'Event published',
          )}
        >
          <h3>Publish a test event</h3>
          <label>
            Subject <input name="subject" required placeholder="hub.events.repo.content.update" />
          </label>
          <label>
            Payload (JSON) <textarea name="payload" required rows={4} />
          </label>
          <button type="submit">Publish event</button>
        </form>
      </div>
    </Screen>
  );
}

/**
 * A token just made: its value once, with Copy, and why it cannot be shown again (the hub keeps a
 * hash, not the value).
 */
function NewToken(props: { token: string }): preact.JSX.Element {
  const [said, setSaid] = useState('');
  const copy = (): void => {
    navigator.clipboard.writeText(props.token).then(
      () => setSaid('Copied'),
      () => setSaid('Copy failed: select the token and copy it by hand'),
    );
  };
  return (
    <div class="card" role="alert">
      <p>
        New token: <code>{props.token}</code>{' '}
        <button type="button" onClick={copy}>
          Copy token
        </button>{' '}
        <span role="status">{said}</span>
      </p>
      <p>
        <strong>Copy it now: this is the only time it is shown.</strong> The hub keeps only a hash of it, so nobody can
        show it again; once this page changes it is gone.
      </p>
    </div>
  );
}
