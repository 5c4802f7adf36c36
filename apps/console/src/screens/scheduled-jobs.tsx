import { useState } from 'preact/hooks';
import { api } from '../api';
import { useConfirm } from '../confirm';
import { href } from '../router';
import { Screen, Status, TableBox, useAction, useLoad, when } from '../ui';
import { canWrite, type Job, useWhoAmI } from './jobs';
import { scheduleInWords } from './schedule-words';

interface ScheduledJob {
  id: string;
  schedule: string;
  suspend: boolean;
  owner: { name: string };
  jobSpec: { dockerImage?: string; spaceId?: string };
  status: { lastJobId?: string | null; nextJobRunAt?: string | null };
}

/** The schedule in words with its zone, the cron itself beside it. */
function Schedule(props: { schedule: string }): preact.JSX.Element {
  const { words, zone } = scheduleInWords(props.schedule);
  return (
    <>
      {words ? `${words} (${zone})` : `cron, ${zone}`}
      <br />
      <code>{props.schedule}</code>
    </>
  );
}

/** Scheduled jobs of the user and their organizations: create, suspend/resume, run now, delete. */
export function ScheduledJobs(): preact.JSX.Element {
  const me = useWhoAmI();
  const namespaces = me.data ? [me.data.name, ...me.data.orgs.map((o) => o.name)] : [];
  const list = useLoad(
    async () =>
      (await Promise.all(namespaces.map((ns) => api<ScheduledJob[]>('GET', `/api/scheduled-jobs/${ns}`)))).flat(),
    [namespaces.join(',')],
  );
  const writable = namespaces.filter((ns) => me.data && canWrite(me.data, ns));
  const [creating, setCreating] = useState(false);
  const [started, setStarted] = useState<Job | null>(null);
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
        const answer = await (verb === 'delete' ? api('DELETE', path) : api('POST', `${path}/${verb}`));
        // Run now answers the job it started: the message links to it.
        setStarted(verb === 'run' ? (answer as Job) : null);
        list.reload();
      },
      verb === 'run' ? 'Started a run' : `${verb[0].toUpperCase()}${verb.slice(1)}d`,
    );
  };
  return (
    <Screen title="Scheduled jobs">
      {writable.length > 0 && (
        <button type="button" aria-expanded={creating} onClick={() => setCreating(!creating)}>
          {creating ? 'Close the form' : 'New scheduled job'}
        </button>
      )}
      {creating && (
        <ScheduleForm
          namespaces={writable}
          onCreated={() => {
            setCreating(false);
            list.reload();
          }}
        />
      )}
      <Status error={action.error ?? list.error} message={action.message} />
      {started && !action.error && (
        <p>
          <a href={href(`/jobs/${started.owner.name}/${started.id}`)}>Open the job it started ({started.id})</a>
        </p>
      )}
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
                  <Schedule schedule={s.schedule} />
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

/** The fields the API's 400 may name, and the form field that shows it. */
const FIELDS = ['schedule', 'dockerImage', 'command', 'flavor'] as const;

/** A scheduled job: namespace, schedule (its words shown as typed), image, command, flavor. */
function ScheduleForm(props: { namespaces: string[]; onCreated: () => void }): preact.JSX.Element {
  const [schedule, setSchedule] = useState('0 9 * * 1-5');
  const action = useAction();
  const named = FIELDS.find((f) => action.error?.includes(f));
  const field = (name: (typeof FIELDS)[number]): Record<string, unknown> =>
    named === name ? { 'aria-invalid': true, 'aria-describedby': 'schedule-form-error' } : {};
  const error = (name: (typeof FIELDS)[number]): preact.JSX.Element | null =>
    named === name ? (
      <small class="field-error" id="schedule-form-error">
        {action.error}
      </small>
    ) : null;
  const preview = scheduleInWords(schedule);
  const submit = (e: Event): void => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const v = (k: string): string => String(f.get(k) ?? '').trim();
    void action.run(async () => {
      await api('POST', `/api/scheduled-jobs/${v('namespace')}`, {
        schedule: v('schedule'),
        jobSpec: { dockerImage: v('image'), command: ['sh', '-c', v('command')], flavor: v('flavor') },
      });
      props.onCreated();
    }, 'Scheduled');
  };
  return (
    <form class="card" onSubmit={submit} aria-label="New scheduled job">
      <h2>New scheduled job</h2>
      <label>
        Namespace
        <select name="namespace">
          {props.namespaces.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <label>
        Schedule (cron; UTC unless it starts with CRON_TZ=Zone)
        <input
          name="schedule"
          required
          value={schedule}
          onInput={(e) => setSchedule(e.currentTarget.value)}
          aria-describedby={named === 'schedule' ? 'schedule-form-error' : 'schedule-words'}
          {...(named === 'schedule' ? { 'aria-invalid': true } : {})}
        />
      </label>
      <small id="schedule-words" class="meta">
        {preview.words ? `Runs ${preview.words} (${preview.zone})` : `A cron schedule in ${preview.zone}`}
      </small>
      {error('schedule')}
      <label>
        Image <input name="image" required value="alpine:3" {...field('dockerImage')} />
      </label>
      {error('dockerImage')}
      <label>
        Command (sh -c) <input name="command" required {...field('command')} />
      </label>
      {error('command')}
      <label>
        Flavor
        <select name="flavor" {...field('flavor')}>
          <option value="cpu-basic">cpu-basic</option>
          <option value="cpu-upgrade">cpu-upgrade</option>
        </select>
      </label>
      {error('flavor')}
      <button type="submit" disabled={action.busy}>
        Create scheduled job
      </button>
      <Status error={named ? undefined : action.error} message={action.message} />
    </form>
  );
}
