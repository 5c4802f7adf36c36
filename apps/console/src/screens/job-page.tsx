import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useConfirm } from '../confirm';
import { go } from '../router';
import { duration, Screen, Status, useAction, useLoad, when } from '../ui';
import { JobCharts, KEPT, type Sample } from './job-charts';
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
  const [samples, setSamples] = useState<Sample[]>([]);
  const action = useAction();
  const confirm = useConfirm();
  const me = useWhoAmI();
  const logEnded = useStream<Line>(`${base}/logs`, (l) => setLines((all) => [...all, l]));
  useStream<StageEvent>(`${base}/events`, (e) => {
    setStages((all) => [...all, e]);
    job.reload();
  });
  useStream<Sample>(`${base}/metrics`, (m) => setSamples((all) => [...all.slice(1 - KEPT), m]));
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
      <JobCharts samples={samples} />
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
