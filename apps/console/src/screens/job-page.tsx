import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useConfirm } from '../confirm';
import { go } from '../router';
import { Screen, Status, useAction, useLoad, when } from '../ui';
import { JobLog, type Line } from './job-log';
import { canWrite, type Job, useWhoAmI } from './jobs';

interface StageEvent {
  stage: string;
  message: string | null;
  timestamp: string;
}

/**
 * Server-sent events on this origin, authenticated by the session cookie; closed when the job's
 * stream ends. Answers whether it has ended (or dropped), so the page can say so.
 */
function useStream<T>(url: string, onItem: (item: T) => void): boolean {
  const [ended, setEnded] = useState(false);
  useEffect(() => {
    const source = new EventSource(url);
    source.onmessage = (m: MessageEvent<string>) => onItem(JSON.parse(m.data) as T);
    // The stream ends with the job: do not let EventSource start it over.
    source.onerror = () => {
      source.close();
      setEnded(true);
    };
    return () => source.close();
  }, [url]);
  return ended;
}

/**
 * One job: its header, timeline, metrics and log as they arrive. The app gives it a key per job, so
 * another job's page is a new one (app.tsx): nothing of this job's streams or state carries over.
 */
export function JobPage(props: { namespace: string; id: string }): preact.JSX.Element {
  const base = `/api/jobs/${props.namespace}/${props.id}`;
  const job = useLoad(() => api<Job>('GET', base), [base]);
  const [lines, setLines] = useState<Line[]>([]);
  const [stages, setStages] = useState<StageEvent[]>([]);
  const [sample, setSample] = useState<Record<string, number> | null>(null);
  const action = useAction();
  const confirm = useConfirm();
  const me = useWhoAmI();
  const logEnded = useStream<Line>(`${base}/logs`, (l) => setLines((all) => [...all, l]));
  useStream<StageEvent>(`${base}/events`, (e) => {
    setStages((all) => [...all, e]);
    job.reload();
  });
  useStream<Record<string, number>>(`${base}/metrics`, setSample);
  const cancel = async (): Promise<void> => {
    const sure = await confirm.ask({
      title: 'Cancel this job?',
      body: `Job ${props.id} stops now; what it has not written yet is lost. It cannot be resumed, only run again.`,
      confirm: 'Cancel job',
    });
    if (sure)
      await action.run(async () => {
        await api('POST', `${base}/cancel`);
        job.reload();
      }, 'Cancel requested');
  };
  const again = (): Promise<void> =>
    action.run(async () => {
      const copy = await api<Job>('POST', `${base}/duplicate`);
      go(`/jobs/${copy.owner.name}/${copy.id}`);
    });
  const j = job.data;
  const writer = !!me.data && canWrite(me.data, props.namespace);
  return (
    <Screen title={`Job ${props.id}`}>
      {j && (
        <p>
          {j.owner.name} · {j.dockerImage ?? j.spaceId} · {j.flavor} · stage <strong>{j.status.stage}</strong>
          <br />
          <span class="meta">
            started {when(j.startedAt)} · ended {when(j.finishedAt)}
            {j.startedAt && ` · ${duration(j.startedAt, j.finishedAt)}`}
          </span>
          <br />
          {writer && (j.status.stage === 'RUNNING' || j.status.stage === 'SCHEDULING') && (
            <button type="button" disabled={action.busy} onClick={() => void cancel()}>
              Cancel job
            </button>
          )}
          {writer && (
            <button type="button" disabled={action.busy} onClick={() => void again()}>
              Run again
            </button>
          )}
        </p>
      )}
      {confirm.dialog}
      <Status error={action.error ?? job.error} message={action.message} />
      <h2>Status timeline</h2>
      <ol>
        {stages.map((s, i) => (
          <li key={i}>
            {when(s.timestamp)}: {s.stage}
            {s.message ? ` (${s.message})` : ''}
          </li>
        ))}
      </ol>
      <h2>Metrics</h2>
      <p>
        {sample
          ? Object.entries(sample)
              .map(([k, v]) => `${k} ${v}`)
              .join(' · ')
          : 'No samples (the job is not running).'}
      </p>
      <h2>Log</h2>
      <JobLog lines={lines} jobId={props.id} />
      {logEnded && (
        <p class="meta" role="status">
          {j && (j.status.stage === 'RUNNING' || j.status.stage === 'SCHEDULING')
            ? 'The log stream dropped while the job runs: reload the page to follow it again.'
            : 'The log stream has ended.'}
        </p>
      )}
    </Screen>
  );
}

/** "1 h 2 min", "3 min 5 s", "4 s": from start to end, or to now while it runs. */
export function duration(from: string, to?: string | null): string {
  const s = Math.max(0, Math.round(((to ? Date.parse(to) : Date.now()) - Date.parse(from)) / 1000));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}
