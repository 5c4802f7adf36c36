// node bench/webhooks/profile-slice.mjs <file.cpuprofile> <profiledFrom> <from> <to> [step]
// Where a CPU profile of the noisy bench (BENCH_CPU_PROF) spent the time between two wall-clock
// moments (ms since the epoch, as the bench prints them: `profiledFrom`, `windows`): the busy ms in
// each `step` (1000 ms) and, over the whole span, the busiest packages and functions (self time).
import { readFileSync } from 'node:fs';

const [file, profiledFrom, from, to, step = '1000'] = process.argv.slice(2);
if (!to) throw new Error('usage: profile-slice.mjs <file.cpuprofile> <profiledFrom> <from> <to> [step]');
const prof = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map(prof.nodes.flatMap((n) => (n.children ?? []).map((c) => [c, n.id])));
const at = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);

/** The package of the nearest frame up the stack from node_modules, or `ours` for the bundle. */
function packageOf(id) {
  for (let x = id; x !== undefined; x = parent.get(x)) {
    const url = nodes.get(x).callFrame.url;
    const m = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
    if (m) return m[1];
    if (url.includes('/dist/')) return 'ours';
  }
  return nodes.get(id).callFrame.functionName || '(native)';
}

const perStep = new Map();
const byPackage = new Map();
const byFunction = new Map();
let t = prof.startTime;
prof.samples.forEach((sample, i) => {
  t += prof.timeDeltas[i];
  const wall = Number(profiledFrom) + (t - prof.startTime) / 1000;
  const n = nodes.get(sample);
  if (wall < Number(from) || wall >= Number(to) || n.callFrame.functionName === '(idle)') return;
  const ms = (prof.timeDeltas[i + 1] ?? 0) / 1000;
  at(perStep, Math.floor((wall - Number(from)) / Number(step)), ms);
  at(byPackage, packageOf(sample), ms);
  const { functionName, url, lineNumber } = n.callFrame;
  at(byFunction, `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\//, '')}:${lineNumber}`, ms);
});
const top = (m, k) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, ms]) => `${ms.toFixed(1).padStart(8)} ${name}`)
    .join('\n');
const steps = Math.ceil((Number(to) - Number(from)) / Number(step));
console.log(
  `busy ms per ${step} ms:`,
  Array.from({ length: steps }, (_, i) => Math.round(perStep.get(i) ?? 0)).join(' '),
);
console.log(`packages:\n${top(byPackage, 12)}\nfunctions:\n${top(byFunction, 20)}`);
