import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { Screen, Status, useAction, useLoad, when } from '../ui';
import { type Job } from './jobs';

interface Line {
  data: string;
  timestamp: string;
}
interface StageEvent {
  stage: string;
  message: string | null;
  timestamp: string;
}

/** Server-sent events on this origin, authenticated by the session cookie; closed when the job's stream ends. */
function useStream<T>(url: string, onItem: (item: T) => void): void {
  useEffect(() => {
    const source = new EventSource(url);
    source.onmessage = (m: MessageEvent<string>) => onItem(JSON.parse(m.data) as T);
    // The stream ends with the job: do not let EventSource start it over.
    source.onerror = () => source.close();
    return () => source.close();
  }, [url]);
}

export function JobPage(props: { namespace: string; id: string }): preact.JSX.Element {
  const base = `/api/jobs/${props.namespace}/${props.id}`;
  const job = useLoad(() => api<Job>('GET', base), [base]);
  const [lines, setLines] = useState<Line[]>([]);
  const [stages, setStages] = useState<StageEvent[]>([]);
  const [sample, setSample] = useState<Record<string, number> | null>(null);
  const [follow, setFollow] = useState(true);
  const [stamps, setStamps] = useState(false);
  const log = useRef<HTMLPreElement>(null);
  const action = useAction();
  useStream<Line>(`${base}/logs`, (l) => setLines((all) => [...all, l]));
  useStream<StageEvent>(`${base}/events`, (e) => {
    setStages((all) => [...all, e]);
    job.reload();
  });
  useStream<Record<string, number>>(`${base}/metrics`, setSample);
  useEffect(() => {
    if (follow && log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [lines, follow]);
  const cancel = (): Promise<void> =>
    action.run(async () => {
      await api('POST', `${base}/cancel`);
      job.reload();
    }, 'Cancel requested');
  const j = job.data;
  return (
    <Screen title={`Job ${props.id}`}>
      {j && (
        <p>
          {j.owner.name} · {j.dockerImage ?? j.spaceId} · {j.flavor} · stage <strong>{j.status.stage}</strong>
          {(j.status.stage === 'RUNNING' || j.status.stage === 'SCHEDULING') && (
            <button type="button" onClick={() => void cancel()}>
              Cancel job
            </button>
          )}
        </p>
      )}
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
      <label class="inline">
        <input type="checkbox" checked={follow} onChange={() => setFollow(!follow)} /> Follow
      </label>
      <label class="inline">
        <input type="checkbox" checked={stamps} onChange={() => setStamps(!stamps)} /> Timestamps
      </label>
      <pre class="log" ref={log} tabIndex={0} aria-label="Job log" aria-live="polite">
        {lines.map((l) => (stamps ? `${l.timestamp} ${l.data}` : l.data)).join('\n')}
      </pre>
    </Screen>
  );
}
