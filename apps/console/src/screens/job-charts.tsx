/** One metrics event of a running job (`…/metrics`, the public hub's sample). */
export interface Sample {
  cpu_usage_pct: number;
  cpu_millicores: number;
  memory_used_bytes: number;
  memory_total_bytes: number;
  timestamp: string;
}

/** The samples a chart keeps: the last minute (the stream sends one a second). */
export const KEPT = 60;

const W = 240;
const H = 48;

/** A sparkline of fractions (0..1) as an SVG polyline: no chart library (decision 0805). */
function Spark(props: { values: number[]; label: string }): preact.JSX.Element {
  const n = props.values.length;
  const points = props.values
    .map((v, i) => {
      const x = n === 1 ? W : (i / (KEPT - 1)) * W + (W - ((n - 1) / (KEPT - 1)) * W);
      const y = H - Math.min(1, Math.max(0, v)) * (H - 2) - 1;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
  return (
    <svg class="spark" viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={props.label}>
      <line x1="0" y1={H - 1} x2={W} y2={H - 1} class="axis" />
      <polyline points={points} />
    </svg>
  );
}

const GB = 1024 ** 3;
const MB = 1024 ** 2;

export function bytes(n: number): string {
  return n >= GB ? `${(n / GB).toFixed(1)} GB` : `${Math.round(n / MB)} MB`;
}

/** CPU as a share of what the job may use (its millicores), memory of its allowance; live. */
export function JobCharts(props: { samples: Sample[] }): preact.JSX.Element {
  const s = props.samples;
  const last = s[s.length - 1];
  if (!last) return <p>No samples (the job is not running).</p>;
  const cpus = last.cpu_millicores / 1000;
  const cpu = s.map((x) => x.cpu_usage_pct / (x.cpu_millicores / 10));
  const mem = s.map((x) => x.memory_used_bytes / x.memory_total_bytes);
  const cpuNow = `${Math.round(last.cpu_usage_pct)} % of one CPU (${cpus} ${cpus === 1 ? 'CPU' : 'CPUs'} allowed)`;
  const memNow = `${bytes(last.memory_used_bytes)} of ${bytes(last.memory_total_bytes)}`;
  return (
    <div class="charts">
      <figure>
        <figcaption>
          CPU <strong>{cpuNow}</strong>
        </figcaption>
        <Spark values={cpu} label={`CPU over the last ${s.length} samples, now ${cpuNow}`} />
      </figure>
      <figure>
        <figcaption>
          Memory <strong>{memNow}</strong>
        </figcaption>
        <Spark values={mem} label={`Memory over the last ${s.length} samples, now ${memNow}`} />
      </figure>
    </div>
  );
}
