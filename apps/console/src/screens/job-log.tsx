import { useEffect, useRef, useState } from 'preact/hooks';

export interface Line {
  data: string;
  timestamp: string;
}

/** A line that reads as a failure: where "Jump to first error" goes. */
const ERROR = /\b(error|exception|traceback|fatal|panic)\b/i;

/**
 * The job's log as it arrives: follow (keep the end in view), timestamps, a search that keeps the
 * matching lines, download as text, and a jump to the first line that reads as an error.
 */
export function JobLog(props: { lines: Line[]; jobId: string }): preact.JSX.Element {
  const [follow, setFollow] = useState(true);
  const [stamps, setStamps] = useState(false);
  const [search, setSearch] = useState('');
  const [download, setDownload] = useState<string>();
  const log = useRef<HTMLPreElement>(null);
  const text = (l: Line): string => (stamps ? `${l.timestamp} ${l.data}` : l.data);
  const shown = search ? props.lines.filter((l) => l.data.toLowerCase().includes(search.toLowerCase())) : props.lines;
  const firstError = shown.findIndex((l) => ERROR.test(l.data));
  useEffect(() => {
    if (follow && log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [props.lines, follow]);
  // The download is made when asked (the log grows), and its object URL let go when replaced.
  useEffect(() => () => download && URL.revokeObjectURL(download), [download]);
  const jump = (): void => {
    setFollow(false);
    const line = log.current?.querySelector<HTMLElement>(`[data-line="${firstError}"]`);
    line?.scrollIntoView({ block: 'center' });
    line?.classList.add('hit');
  };
  return (
    <>
      <div class="filters">
        <label class="inline">
          <input type="checkbox" checked={follow} onChange={() => setFollow(!follow)} /> Follow
        </label>
        <label class="inline">
          <input type="checkbox" checked={stamps} onChange={() => setStamps(!stamps)} /> Timestamps
        </label>
        <label>
          Search the log
          <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        </label>
        <button type="button" disabled={firstError < 0} onClick={jump}>
          Jump to first error
        </button>
        {download ? (
          <a href={download} download={`job-${props.jobId}.log`}>
            Save job-{props.jobId}.log
          </a>
        ) : (
          <button
            type="button"
            class="secondary"
            onClick={() =>
              setDownload(URL.createObjectURL(new Blob([props.lines.map(text).join('\n')], { type: 'text/plain' })))
            }
          >
            Download log
          </button>
        )}
      </div>
      <pre class="log" ref={log} tabIndex={0} aria-label="Job log" aria-live="polite">
        {shown.map((l, i) => (
          <span key={i} data-line={i} class={ERROR.test(l.data) ? 'error' : undefined}>
            {text(l)}
            {i < shown.length - 1 ? '\n' : ''}
          </span>
        ))}
      </pre>
    </>
  );
}
