// Receiver benchmark: a no-op handler behind the full checks (secret header, Standard Webhooks
// signature over the body, timestamp, replay memory, JSON parse, payload validation) beside a
// bare node:http server answering 200, in the same run, with the same requests.
// Not a test: it prints figures. `npm run bench:receiver` (BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS).
import { execFileSync, fork } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const outDir = join(root, 'tmp/bench-receiver');
const libDir = join(outDir, 'libs/webhook-receiver/src');
const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const roundCount = Number(process.env.BENCH_ROUNDS ?? 3);
const SECRET = 'bench-secret-0123456789';

// 1. Compile the library as it ships (tsc, CommonJS) so the bench runs the real code.
execFileSync(
  process.execPath,
  [
    join(root, 'node_modules/typescript/bin/tsc'),
    '-p',
    join(root, 'libs/webhook-receiver/tsconfig.lib.json'),
    '--outDir',
    outDir,
  ],
  { stdio: 'inherit' },
);

// A realistic payload v3 (repo.content update, ~900 bytes), identical for both servers.
const body = JSON.stringify({
  event: { action: 'update', scope: 'repo.content' },
  repo: {
    type: 'model',
    name: 'alice/tiny-model',
    id: '6500aaaabbbbccccddddeeee',
    private: false,
    url: { web: 'https://hub.example/alice/tiny-model', api: 'https://hub.example/api/models/alice/tiny-model' },
    owner: { id: '64f0c0ffee0123456789abcd' },
    headSha: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b',
  },
  updatedRefs: [
    {
      ref: 'refs/heads/main',
      oldSha: 'b5bb9d8014a0f9b1d61e21e796d78dccdf1352f2',
      newSha: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b',
    },
  ],
  webhook: { id: '6600aaaabbbbccccddddeeee', version: 3 },
});
const key = Buffer.from(SECRET, 'utf8');

/** Every request is a fresh delivery: unique webhook-id, current timestamp, its own signature. */
function signedRequest(req) {
  const id = `msg_${randomUUID()}`;
  const ts = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');
  return {
    ...req,
    headers: {
      'content-type': 'application/json',
      'x-webhook-secret': SECRET,
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': `v1,${signature}`,
    },
  };
}

async function startServer(kind) {
  const child = fork(join(here, 'server.mjs'), [kind, libDir, SECRET], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise((ok, fail) => {
    child.once('message', (message) => ok(message.port));
    child.once('exit', (code) => fail(new Error(`${kind} server exited with ${code}`)));
  });
  const cpu = () =>
    new Promise((ok) => {
      child.once('message', (message) => ok((message.cpu.user + message.cpu.system) / 1000));
      child.send('cpu');
    });
  return { child, cpu, url: `http://127.0.0.1:${port}` };
}

function load(url, path, seconds) {
  return autocannon({
    url,
    connections,
    duration: seconds,
    requests: [{ method: 'POST', path, body, setupRequest: signedRequest }],
  });
}

/** One measured window against a running server, with its CPU time read around it. */
async function measure(server, kind) {
  const cpuBefore = await server.cpu();
  const result = await load(server.url, '/webhooks/noop', duration);
  const cpuMs = (await server.cpu()) - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${kind}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts: the bench is not measuring what it claims`,
    );
  }
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    busy: cpuMs / (duration * 1000),
    cpuUsPerRequest: (cpuMs * 1000) / result.requests.total,
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// Both servers run for the whole bench; rounds alternate between them so that load from other
// processes on the machine falls on both alike, and medians are reported.
const servers = { bare: await startServer('bare'), receiver: await startServer('receiver') };
const rounds = { bare: [], receiver: [] };
try {
  for (const kind of ['bare', 'receiver']) await load(servers[kind].url, '/webhooks/noop', 2); // warm-up
  for (let round = 0; round < roundCount; round++) {
    for (const kind of ['bare', 'receiver']) rounds[kind].push(await measure(servers[kind], kind));
  }
} finally {
  for (const server of Object.values(servers)) server.child.kill();
}

const summary = (kind) => {
  const r = rounds[kind];
  const pick = (key) => median(r.map((x) => x[key]));
  return {
    rps: pick('rps'),
    p50: pick('p50'),
    p99: pick('p99'),
    busy: pick('busy'),
    cpuUsPerRequest: pick('cpuUsPerRequest'),
  };
};
const bare = summary('bare');
const receiver = summary('receiver');
const throughputRatios = rounds.receiver.map((r, i) => r.rps / rounds.bare[i].rps);
const capacityRatios = rounds.receiver.map((r, i) => rounds.bare[i].cpuUsPerRequest / r.cpuUsPerRequest);

console.log(
  `\nReceiver bench: ${cpus().length} CPU(s), load average ${loadavg()[0].toFixed(1)} at the end, node ${process.version}.`,
);
console.log('autocannon runs in this process; each server in its own child process, both started once.');
console.log(
  `${roundCount} alternating rounds of ${duration} s per server after a 2 s warm-up each, ${connections} connections,`,
);
console.log(
  `POST of a ${body.length}-byte payload v3, every request with X-Webhook-Secret and a fresh Standard Webhooks`,
);
console.log('id, timestamp and signature (unique ids: the handler runs every time, no replay short-cut).\n');
console.log('server (medians)               req/s     p50 ms   p99 ms   server CPU busy   CPU us/request');
for (const [label, r] of [
  ['bare node:http 200', bare],
  ['webhook-receiver (no-op)', receiver],
]) {
  console.log(
    `${label.padEnd(28)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(10)} ${String(r.p99).padStart(8)}` +
      `${`${(r.busy * 100).toFixed(0)} %`.padStart(18)} ${r.cpuUsPerRequest.toFixed(1).padStart(16)}`,
  );
}
const pct = (values) => values.map((v) => `${(v * 100).toFixed(0)} %`).join(', ');
console.log(
  `\nratio receiver / bare, throughput: median ${(median(throughputRatios) * 100).toFixed(1)} % (rounds: ${pct(throughputRatios)}) — target >= 70 %`,
);
console.log(
  `ratio receiver / bare, capacity (bare CPU per request / receiver CPU per request): median ${(median(capacityRatios) * 100).toFixed(1)} % (rounds: ${pct(capacityRatios)})`,
);
if (Math.max(bare.busy, receiver.busy) < 0.9) {
  console.log(
    'note: neither server was CPU-bound, so the load generator set the pace; the capacity ratio is the stricter figure.',
  );
}
