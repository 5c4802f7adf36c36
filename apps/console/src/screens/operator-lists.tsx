import { useState } from 'preact/hooks';
import { api } from '../api';
import { useConfirm } from '../confirm';
import { go, type Route } from '../router';
import { Pager, Status, TableBox, useAction, usePaged, when } from '../ui';

interface User {
  name: string;
  fullname: string;
  email: string;
  createdAt: string;
  managedByOrganizationId: string | null;
}
interface Token {
  id: string;
  displayName: string;
  role: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
interface Org {
  name: string;
  fullname: string;
  plan: string;
  memberCount: number;
  createdAt: string;
}

/** Rows a page: a screenful (the API allows up to 100). */
const PAGE = '20';

/** A list's URL: its page size, filter and the page's cursor, when there are. */
function listPath(path: string, params: Record<string, string | undefined>): string {
  const q = new URLSearchParams({ limit: PAGE });
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  return `${path}?${q.toString()}`;
}

/** A list's filter; give it `key={value}` so that a new URL starts it over. */
function Search(props: { of: string; value: string; onSearch: (value: string) => void }): preact.JSX.Element {
  const [value, setValue] = useState(props.value);
  return (
    <form
      class="filters"
      role="search"
      aria-label={`Filter ${props.of}`}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSearch(value.trim());
      }}
    >
      <label>
        Search {props.of}
        <input type="search" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
      </label>
      <button type="submit">
        Search<span class="sr-only"> {props.of}</span>
      </button>
    </form>
  );
}

/**
 * The operator's view of the hub (admin lists, decision 0004): users, a user's tokens (never a
 * value), organizations. Filters and the user whose tokens are shown stay in the URL; `version`
 * changes when the screen's forms made something, and the lists read again.
 */
export function OperatorLists(props: { route: Route; version: number }): preact.JSX.Element {
  const q = props.route.query;
  const current = { users: q.get('users') ?? '', orgs: q.get('orgs') ?? '', tokensOf: q.get('tokensOf') ?? '' };
  const set = (change: Partial<typeof current>): void => go('/operator', { ...current, ...change });
  const users = usePaged<User>(
    (cursor) => listPath('/admin/users', { search: current.users, cursor }),
    [current.users, props.version],
  );
  const orgs = usePaged<Org>(
    (cursor) => listPath('/admin/organizations', { search: current.orgs, cursor }),
    [current.orgs, props.version],
  );
  const tokens = usePaged<Token>(
    (cursor) => listPath(`/admin/users/${encodeURIComponent(current.tokensOf)}/tokens`, { cursor }),
    [current.tokensOf, props.version],
  );
  // Revoking by id (decision 0807): asks first, then the list is read again.
  const revoking = useAction();
  const confirm = useConfirm();
  const revoke = async (t: Token): Promise<void> => {
    const sure = await confirm.ask({
      title: `Revoke ${current.tokensOf}'s token “${t.displayName}”?`,
      body: `The token ending …${t.last4} stops working at once, everywhere, and the console sessions signed in with it end. It cannot be made to work again; the user needs a new token.`,
      confirm: 'Revoke token',
    });
    if (sure)
      await revoking.run(async () => {
        await api(
          'POST',
          `/admin/users/${encodeURIComponent(current.tokensOf)}/tokens/${encodeURIComponent(t.id)}/revoke`,
        );
        tokens.reload();
      }, `Revoked the token ending …${t.last4}`);
  };
  return (
    <>
      <h2>Users</h2>
      <Search key={current.users} of="users" value={current.users} onSearch={(users) => set({ users })} />
      <Status error={users.error} />
      <TableBox label="Users">
        <table>
          <caption>Users{current.users && ` matching “${current.users}”`}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Full name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Created</th>
              <th scope="col">Account</th>
              <th scope="col">Tokens</th>
            </tr>
          </thead>
          <tbody>
            {users.page?.items.map((u) => (
              <tr key={u.name}>
                <td>{u.name}</td>
                <td>{u.fullname}</td>
                <td>{u.email}</td>
                <td>{when(u.createdAt)}</td>
                <td>{u.managedByOrganizationId ? `SCIM of organization ${u.managedByOrganizationId}` : 'hub'}</td>
                <td>
                  <button type="button" onClick={() => set({ tokensOf: u.name })}>
                    Show tokens<span class="sr-only"> of {u.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableBox>
      {users.page?.items.length === 0 && <p>No users.</p>}
      <Pager of="users" paged={users} />

      {current.tokensOf && (
        <>
          <h2>Tokens of {current.tokensOf}</h2>
          <Status error={revoking.error ?? tokens.error} message={revoking.message} />
          {confirm.dialog}
          <TableBox label="Tokens">
            <table>
              <caption>Tokens of {current.tokensOf}, newest first (their values are never shown again)</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">Ends with</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">State</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {tokens.page?.items.map((t) => (
                  <tr key={t.id}>
                    <td>{t.displayName}</td>
                    <td>{t.role}</td>
                    <td>
                      <code>…{t.last4}</code>
                    </td>
                    <td>{when(t.createdAt)}</td>
                    <td>{when(t.lastUsedAt)}</td>
                    <td>{t.revokedAt ? <>revoked {when(t.revokedAt)}</> : 'active'}</td>
                    <td>
                      {!t.revokedAt && (
                        <button type="button" disabled={revoking.busy} onClick={() => void revoke(t)}>
                          Revoke
                          <span class="sr-only">
                            {' '}
                            token {t.displayName} ending {t.last4}
                          </span>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableBox>
          {tokens.page?.items.length === 0 && <p>No tokens.</p>}
          <Pager of={`tokens of ${current.tokensOf}`} paged={tokens} />
          <button type="button" onClick={() => set({ tokensOf: '' })}>
            Hide tokens<span class="sr-only"> of {current.tokensOf}</span>
          </button>
        </>
      )}

      <h2>Organizations</h2>
      <Search key={current.orgs} of="organizations" value={current.orgs} onSearch={(orgs) => set({ orgs })} />
      <Status error={orgs.error} />
      <TableBox label="Organizations">
        <table>
          <caption>Organizations{current.orgs && ` matching “${current.orgs}”`}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Full name</th>
              <th scope="col">Plan</th>
              <th scope="col">Members</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {orgs.page?.items.map((o) => (
              <tr key={o.name}>
                <td>{o.name}</td>
                <td>{o.fullname}</td>
                <td>{o.plan}</td>
                <td>{o.memberCount}</td>
                <td>{when(o.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableBox>
      {orgs.page?.items.length === 0 && <p>No organizations.</p>}
      <Pager of="organizations" paged={orgs} />
    </>
  );
}
