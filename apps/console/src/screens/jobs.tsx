import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useConfirm } from '../confirm';
import { go, href, type Route } from '../router';
import { duration, Screen, Status, TableBox, useAction, useLoad, when } from '../ui';

export interface Job {
  id: string;
  createdAt: string;
  startedAt?: string | null;
  finishedAt?: string | null;
  owner: { name: string; type: string };
  dockerImage?: string;
  spaceId?: string;
  command?: string[];
  flavor: string;
  labels: Record<string, string>;
  status: { stage: string; message: string | null; failureCount: number };
}
export interface WhoAmI {
  name: string;
  orgs: { name: string; roleInOrg: string }[];
  auth?: { accessToken?: { role: string } };
}

const ACTIVE = new Set(['SCHEDULING', 'RUNNING']);
/** While a job shown is active, the list is read again this often (decision 0805). */
export const LIVE_EVERY_MS = 2000;

/** A job's stage as a pill, a colour per stage (and its name: colour alone says nothing to some). */
export function StagePill(props: { stage: string }): preact.JSX.Element {
  return <span class={`pill stage-${props.stage.toLowerCase()}`}>{props.stage}</span>;
}

/**
 * Reads `reload` again every LIVE_EVERY_MS while `live` and the tab is visible; stops when nothing
 * shown can change any more.
 */
export function useLive(live: boolean, reload: () => void): void {
  useEffect(() => {
    if (!live) return;
    const t = setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, LIVE_EVERY_MS);
    return () => clearInterval(t);
  }, [live]);
}
/** The organization roles that may start and cancel its jobs (as the gateway's job-namespaces.ts). */
const WRITE_ROLES = new Set(['admin', 'write', 'contributor']);

export function useWhoAmI(): ReturnType<typeof useLoad<WhoAmI>> {
  return useLoad(() => api<WhoAmI>('GET', '/api/whoami-v2'), []);
}

export function useNamespaces(): string[] {
  const me = useWhoAmI();
  return me.data ? [me.data.name, ...me.data.orgs.map((o) => o.name)] : [];
}

/**
 * Whether the caller may change jobs of `namespace`: not with a read token, and in an organization
 * only with a writing role. What it may not do is not offered (it could only fail with 403).
 */
export function canWrite(me: WhoAmI, namespace: string): boolean {
  if (me.auth?.accessToken?.role === 'read') return false;
  if (namespace === me.name) return true;
  const org = me.orgs.find((o) => o.name === namespace);
  return !!org && WRITE_ROLES.has(org.roleInOrg);
}

/** Jobs of the user and their organizations; a label filters the list (kept in the URL). */
export function Jobs(props: { route: Route }): preact.JSX.Element {
  const me = useWhoAmI();
  const namespaces = me.data ? [me.data.name, ...me.data.orgs.map((o) => o.name)] : [];
  const writable = namespaces.filter((ns) => me.data && canWrite(me.data, ns));
  const label = props.route.query.get('label') ?? '';
  const jobs = useLoad(async () => {
    const q = label ? `?label=${encodeURIComponent(label)}` : '';
    const pages = await Promise.all(namespaces.map((ns) => api<Job[]>('GET', `/api/jobs/${ns}${q}`)));
    return pages.flat().sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }, [namespaces.join(','), label]);
  useLive(!!jobs.data?.some((j) => ACTIVE.has(j.status.stage)), jobs.reload);
  const action = useAction();
  const confirm = useConfirm();
  const act = async (j: Job, verb: 'cancel' | 'duplicate'): Promise<void> => {
    const sure =
      verb === 'duplicate' ||
      (await confirm.ask({
        title: 'Cancel this job?',
        body: `Job ${j.id} (${j.dockerImage ?? j.spaceId ?? ''}) stops now; it cannot be resumed, only run again.`,
        confirm: 'Cancel job',
      }));
    if (!sure) return;
    await action.run(
      async () => {
        await api('POST', `/api/jobs/${j.owner.name}/${j.id}/${verb}`);
        jobs.reload();
      },
      verb === 'cancel' ? 'Cancel requested' : 'Duplicated',
    );
  };
  return (
    <Screen title="Jobs">
      {writable.length > 0 && <RunJob namespaces={writable} onRan={jobs.reload} />}
      {confirm.dialog}
      {label && (
        <p>
          Showing jobs labelled <code>{label}</code> · <a href={href('/jobs')}>show all</a>
        </p>
      )}
      <Status error={action.error ?? jobs.error} message={action.message} />
      <TableBox label="Jobs">
        <table>
          <caption>Jobs</caption>
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Namespace</th>
              <th scope="col">Stage</th>
              <th scope="col">Duration</th>
              <th scope="col">Flavor</th>
              <th scope="col">Labels</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {jobs.data?.map((j) => (
              <tr key={j.id}>
                <td>
                  <a href={href(`/jobs/${j.owner.name}/${j.id}`)}>{j.dockerImage ?? j.spaceId ?? j.id}</a>
                </td>
                <td>{j.owner.name}</td>
                <td>
                  <StagePill stage={j.status.stage} />
                </td>
                <td>{j.startedAt ? duration(j.startedAt, j.finishedAt) : '—'}</td>
                <td>{j.flavor}</td>
                <td>
                  {Object.entries(j.labels).map(([k, v]) => (
                    <button key={k} type="button" class="chip" onClick={() => go('/jobs', { label: `${k}=${v}` })}>
                      {k}={v}
                    </button>
                  ))}
                </td>
                <td>{when(j.createdAt)}</td>
                <td>
                  {writable.includes(j.owner.name) && ACTIVE.has(j.status.stage) && (
                    <button type="button" disabled={action.busy} onClick={() => void act(j, 'cancel')}>
                      Cancel<span class="sr-only"> job {j.id}</span>
                    </button>
                  )}
                  {writable.includes(j.owner.name) && (
                    <button type="button" disabled={action.busy} onClick={() => void act(j, 'duplicate')}>
                      Duplicate<span class="sr-only"> job {j.id}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableBox>
    </Screen>
  );
}

function RunJob(props: { namespaces: string[]; onRan: () => void }): preact.JSX.Element {
  const [ns, setNs] = useState('');
  const action = useAction();
  const submit = (e: Event): void => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const v = (k: string): string => String(f.get(k) ?? '').trim();
    const labels = Object.fromEntries(
      v('labels')
        .split(',')
        .map((s) => s.trim().split('='))
        .filter((kv) => kv[0]),
    );
    void action.run(async () => {
      const job = await api<Job>('POST', `/api/jobs/${ns || props.namespaces[0]}`, {
        dockerImage: v('image'),
        command: ['sh', '-c', v('command')],
        flavor: v('flavor'),
        ...(Object.keys(labels).length ? { labels } : {}),
      });
      props.onRan();
      go(`/jobs/${job.owner.name}/${job.id}`);
    }, 'Job started');
  };
  return (
    <form class="card" onSubmit={submit}>
      <h2>Run a job</h2>
      <label>
        Namespace
        <select value={ns || props.namespaces[0]} onChange={(e) => setNs(e.currentTarget.value)}>
          {props.namespaces.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <label>
        Image <input name="image" required value="alpine:3" />
      </label>
      <label>
        Command (sh -c) <input name="command" required />
      </label>
      <label>
        Flavor
        <select name="flavor">
          <option value="cpu-basic">cpu-basic</option>
          <option value="cpu-upgrade">cpu-upgrade</option>
        </select>
      </label>
      <label>
        Labels (key=value, comma separated) <input name="labels" />
      </label>
      <button type="submit" disabled={action.busy}>
        Run job
      </button>
      <Status error={action.error} message={action.message} />
    </form>
  );
}
