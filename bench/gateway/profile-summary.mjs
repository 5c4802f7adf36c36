// Where a server's CPU went, from a .cpuprofile written by cpu-profile.cjs: self time by
// package (node_modules/<name>, the app bundle, Node internals, GC) and the top functions.
// Usage: node bench/gateway/profile-summary.mjs <file.cpuprofile>...  (run.mjs calls it too)
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

function bucketOf(frame) {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node internals';
  if (url.includes('/dist/apps/')) return `app bundle (${url.split('/dist/apps/')[1].split('/')[0]})`;
  if (url.includes('/bench/')) return 'bench';
  return url;
}

export function summarize(file, top = 12) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  // Sample intervals: time between consecutive samples is charged to the sampled node.
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i + 1] ?? 0;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
  }
  const total = [...self.entries()].reduce(
    (sum, [id, t]) => (byId.get(id).callFrame.functionName === '(idle)' ? sum : sum + t),
    0,
  );
  const buckets = new Map();
  const functions = new Map();
  for (const [id, t] of self) {
    const frame = byId.get(id).callFrame;
    if (frame.functionName === '(idle)') continue;
    const bucket = bucketOf(frame);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + t);
    const key = `${frame.functionName || '(anonymous)'} ${bucket}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    functions.set(key, (functions.get(key) ?? 0) + t);
  }
  const pct = (t) => `${((t / total) * 100).toFixed(1).padStart(5)} %`;
  const lines = [`${basename(file)}: ${(total / 1000).toFixed(0)} ms busy`];
  lines.push('  by package (self time):');
  for (const [b, t] of [...buckets].sort((x, y) => y[1] - x[1]).slice(0, top)) lines.push(`    ${pct(t)}  ${b}`);
  lines.push('  top functions (self time):');
  for (const [f, t] of [...functions].sort((x, y) => y[1] - x[1]).slice(0, top)) lines.push(`    ${pct(t)}  ${f}`);
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) {
  for (const file of process.argv.slice(2)) console.log(summarize(file));
}
