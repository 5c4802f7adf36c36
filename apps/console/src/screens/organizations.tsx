import { useEffect, useState } from 'preact/hooks';
import { api, apiPage } from '../api';
import { go, type Route } from '../router';
import { AuditStreams } from './audit-streams';
import { Screen, Status, TableBox, useAction, useLoad, when } from '../ui';

interface Member {
  user: string;
  role: string;
}
interface Repo {
  id: string;
  type: string;
  visibility: string;
  storage: number;
  storagePercent: number;
}
interface WhoAmI {
  orgs: { name: string; roleInOrg: string; plan?: string }[];
}
interface AuditEvent {
  type: string;
  createdAt: string;
  message: string;
  author?: { user?: string; name?: string };
}

const ENTERPRISE = ['enterprise', 'enterprise_plus'];

const bytes = (n: number): string =>
  n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} kB` : `${(n / 1024 ** 2).toFixed(1)} MB`;

/**
 * What the API shows a member: members and roles, storage; an admin also reads and exports the
 * audit log, and an Enterprise organization's admin manages its audit log streams.
 */
export function Organizations(props: { route: Route }): preact.JSX.Element {
  const me = useLoad(() => api<WhoAmI>('GET', '/api/whoami-v2'), []);
  const orgs = me.data?.orgs ?? [];
  const name = props.route.query.get('org') ?? orgs[0]?.name ?? '';
  const org = orgs.find((o) => o.name === name);
  return (
    <Screen title="Organizations">
      <Status error={me.error} />
      {me.data && orgs.length === 0 && <p>You are not a member of any organization.</p>}
      {orgs.length > 0 && (
        <label>
          Organization
          <select value={name} onChange={(e) => go('/organizations', { org: e.currentTarget.value })}>
            {orgs.map((o) => (
              <option key={o.name} value={o.name}>
                {o.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {org && (
        <OrgDetails
          key={org.name}
          name={org.name}
          role={org.roleInOrg}
          plan={org.plan ?? ''}
          q={props.route.query.get('q') ?? ''}
        />
      )}
    </Screen>
  );
}

function OrgDetails(props: { name: string; role: string; plan: string; q: string }): preact.JSX.Element {
  const base = `/api/organizations/${encodeURIComponent(props.name)}`;
  const members = useLoad(() => api<Member[]>('GET', `${base}/members`), [base]);
  const repos = useLoad(() => api<Repo[]>('GET', `${base}/settings/repositories`), [base]);
  return (
    <>
      <p>Your role: {props.role}</p>
      <Status error={members.error ?? repos.error} />
      <TableBox label="Members and roles">
        <table>
          <caption>Members and roles</caption>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Role</th>
            </tr>
          </thead>
          <tbody>
            {members.data?.map((m) => (
              <tr key={m.user}>
                <td>{m.user}</td>
                <td>{m.role}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableBox>
      <TableBox label="Storage usage">
        <table>
          <caption>Storage usage</caption>
          <thead>
            <tr>
              <th scope="col">Repository</th>
              <th scope="col">Type</th>
              <th scope="col">Visibility</th>
              <th scope="col">Storage</th>
            </tr>
          </thead>
          <tbody>
            {repos.data?.map((r) => (
              <tr key={r.id}>
                <td>{r.id}</td>
                <td>{r.type}</td>
                <td>{r.visibility}</td>
                <td>
                  {bytes(r.storage)} ({r.storagePercent} %)
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableBox>
      <p>Resource groups are managed by the hub's operator (the API lists none to members).</p>
      {props.role === 'admin' && <AuditLog name={props.name} q={props.q} />}
      {/* Streams are for the admins of Enterprise organizations (the API refuses anyone else). */}
      {props.role === 'admin' && ENTERPRISE.includes(props.plan) && <AuditStreams org={props.name} />}
      {props.role === 'admin' && !ENTERPRISE.includes(props.plan) && (
        <p>Streaming the audit log to S3, Splunk, Datadog or an HTTPS endpoint needs the Enterprise plan.</p>
      )}
    </>
  );
}

/**
 * The audit log, a page of 100 at a time from `…/audit-log/events` (decision 0423) when the page
 * opens and on each search, "Older events" for the next page; the export there to download.
 */
function AuditLog(props: { name: string; q: string }): preact.JSX.Element {
  const [q, setQ] = useState(props.q);
  // The search the list (and the download) are for: the field may hold an edit not searched yet.
  const [shown, setShown] = useState(props.q);
  const [events, setEvents] = useState<AuditEvent[] | null>(null);
  const [next, setNext] = useState<string | undefined>(undefined);
  const action = useAction();
  const base = `/api/organizations/${encodeURIComponent(props.name)}/audit-log`;
  const qs = (search: string): string => (search ? `q=${encodeURIComponent(search)}` : '');
  const read = (search: string, cursor?: string, done?: string): Promise<void> =>
    action.run(async () => {
      const params = [`limit=100`, qs(search), cursor ? `cursor=${encodeURIComponent(cursor)}` : ''];
      const page = await apiPage<AuditEvent>(`${base}/events?${params.filter(Boolean).join('&')}`);
      setEvents((before) => (cursor && before ? [...before, ...page.items] : page.items));
      setNext(page.next);
      setShown(search);
    }, done);
  useEffect(() => {
    void read(props.q);
  }, [props.name]);
  const run = (e: Event): void => {
    e.preventDefault();
    go('/organizations', { org: props.name, q });
    void read(q, undefined, 'Audit log read');
  };
  return (
    <section aria-labelledby="audit-title" class="card">
      <h2 id="audit-title">Audit log</h2>
      <form onSubmit={run}>
        <label>
          Filter (q)
          <input
            type="search"
            value={q}
            placeholder="type:repo.create author:alice"
            onInput={(e) => setQ(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={action.busy}>
          Search
        </button>
      </form>
      <Status error={action.error} message={action.message} />
      <p>
        <a href={`${base}/export${shown ? `?${qs(shown)}` : ''}`} download>
          Download the export
        </a>{' '}
        (the newest 100,000 events{shown ? ' matching this search' : ''}, as a JSON file)
      </p>
      {events && events.length === 0 && <p>No audit events{q ? ' match this search' : ' yet'}.</p>}
      {events && events.length > 0 && (
        <TableBox label="Audit events">
          <table>
            <caption>Audit events (newest first)</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">What</th>
                <th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {events.map((ev, i) => (
                <tr key={i}>
                  <td>{when(ev.createdAt)}</td>
                  <td>{ev.type}</td>
                  <td>{ev.message}</td>
                  <td>{ev.author?.user ?? ev.author?.name ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
      {next && (
        <button type="button" disabled={action.busy} onClick={() => void read(shown, next)}>
          Older events
        </button>
      )}
    </section>
  );
}
