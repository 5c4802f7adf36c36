import { api } from '../api';
import { useConfirm } from '../confirm';
import { href } from '../router';
import { Screen, Status, TableBox, useAction, useLoad, when } from '../ui';
import { canWrite, useWhoAmI } from './jobs';

interface ScheduledJob {
  id: string;
  schedule: string;
  suspend: boolean;
  owner: { name: string };
  jobSpec: { dockerImage?: string; spaceId?: string };
  status: { lastJobId?: string | null; nextJobRunAt?: string | null };
}

/** Scheduled jobs of the user and their organizations: suspend/resume, run now, delete. */
export function ScheduledJobs(): preact.JSX.Element {
  const me = useWhoAmI();
  const namespaces = me.data ? [me.data.name, ...me.data.orgs.map((o) => o.name)] : [];
  const list = useLoad(
    async () =>
      (await Promise.all(namespaces.map((ns) => api<ScheduledJob[]>('GET', `/api/scheduled-jobs/${ns}`)))).flat(),
    [namespaces.join(',')],
  );
  const action = useAction();
  const confirm = useConfirm();
  const act = async (s: ScheduledJob, verb: 'suspend' | 'resume' | 'run' | 'delete'): Promise<void> => {
    const sure =
      verb !== 'delete' ||
      (await confirm.ask({
        title: 'Delete this scheduled job?',
        body: `${s.jobSpec.dockerImage ?? s.jobSpec.spaceId ?? s.id} (${s.schedule}) in ${s.owner.name} will not run again. Jobs it started stay. This cannot be undone.`,
        confirm: 'Delete scheduled job',
      }));
    if (!sure) return;
    await action.run(
      async () => {
        const path = `/api/scheduled-jobs/${s.owner.name}/${s.id}`;
        await (verb === 'delete' ? api('DELETE', path) : api('POST', `${path}/${verb}`));
        list.reload();
      },
      verb === 'run' ? 'Started a run' : `${verb[0].toUpperCase()}${verb.slice(1)}d`,
    );
  };
  return (
    <Screen title="Scheduled jobs">
      <Status error={action.error ?? list.error} message={action.message} />
      {confirm.dialog}
      {list.data && list.data.length === 0 && <p>No scheduled jobs.</p>}
      <TableBox label="Scheduled jobs">
        <table>
          <caption>Scheduled jobs</caption>
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Namespace</th>
              <th scope="col">Schedule</th>
              <th scope="col">Next run</th>
              <th scope="col">Suspended</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.map((s) => (
              <tr key={s.id}>
                <td>
                  {s.status.lastJobId ? (
                    <a href={href(`/jobs/${s.owner.name}/${s.status.lastJobId}`)}>{s.jobSpec.dockerImage ?? s.id}</a>
                  ) : (
                    (s.jobSpec.dockerImage ?? s.id)
                  )}
                </td>
                <td>{s.owner.name}</td>
                <td>
                  <code>{s.schedule}</code>
                </td>
                <td>{s.suspend ? '—' : when(s.status.nextJobRunAt)}</td>
                <td>{s.suspend ? 'yes' : 'no'}</td>
                <td>
                  {me.data && canWrite(me.data, s.owner.name) && (
                    <>
                      <button
                        type="button"
                        disabled={action.busy}
                        onClick={() => void act(s, s.suspend ? 'resume' : 'suspend')}
                      >
                        {s.suspend ? 'Resume' : 'Suspend'}
                      </button>
                      <button type="button" disabled={action.busy} onClick={() => void act(s, 'run')}>
                        Run now
                      </button>
                      <button type="button" disabled={action.busy} onClick={() => void act(s, 'delete')}>
                        Delete
                      </button>
                    </>
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
