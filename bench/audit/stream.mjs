// The streaming part of `npm run bench:audit` (BENCH_ONLY=stream, or part of `all`): an organization
// with one audit log stream of type `https` to a receiver on loopback run here, audit events
// published at BENCH_STREAM_RATE per second for BENCH_STREAM_SECONDS, and what the receiver got:
// every event (deduplicated by its `_id`, duplicates counted), the rate it arrived at, and the lag
// from an event's `createdAt` (set by the publisher) to its arrival. "Keeps up" means the receiver's
// rate matches the offered one and the lag does not grow with the run's length.
import { createServer } from 'node:http';
import { connect, headers as natsHeaders } from 'nats';

/** A destination that counts: JSON lines in, `{ok:true}` out, arrival time per event id. */
export async function startCountingReceiver() {
  const r = { url: '', arrivals: new Map(), duplicates: 0, requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = Buffer.concat(chunks).toString('utf8');
      r.requests++;
      r.bytes += body.length;
      for (const line of body.split('\n')) {
        if (!line) continue;
        const e = JSON.parse(line);
        if (r.arrivals.has(e._id)) r.duplicates++;
        else r.arrivals.set(e._id, { at, lagMs: at - Date.parse(e.createdAt) });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${server.address().port}`;
  r.close = () => new Promise((resolve) => server.close(() => resolve()));
  return r;
}

/** Publishes `rate` audit events per second for `seconds`, in 20 ms ticks; resolves with what it sent and when. */
export async function publishPaced(natsOptions, { org, busPrefix, idPrefix, rate, seconds }) {
  const nc = await connect(natsOptions);
  const js = nc.jetstream();
  const type = 'org.update_settings';
  const total = Math.round(rate * seconds);
  const t0 = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.ceil(((performance.now() - t0) / 1000) * rate));
    const batch = [];
    for (; sent < due; sent++) {
      const h = natsHeaders();
      h.set('Nats-Msg-Id', `${idPrefix}${sent.toString(16).padStart(16, '0')}`);
      const event = {
        type,
        organizationId: org.id,
        organization: org.name,
        message: `settings ${sent}`,
        data: { i: sent },
        createdAt: new Date().toISOString(),
        author: { _id: '000000000000000000000000', user: 'system', type: 'system' },
        ip: '10.1.0.1',
        userAgent: 'bench/1.0',
      };
      batch.push(js.publish(`${busPrefix}.hub.audit.${type}`, JSON.stringify(event), { headers: h, timeout: 60_000 }));
    }
    await Promise.all(batch);
    await new Promise((r) => setTimeout(r, 20));
  }
  const publishedSeconds = (performance.now() - t0) / 1000;
  await nc.close();
  return { total, publishedSeconds };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/**
 * Runs the stream measurement against a started stack; `admin(path, body, token)` posts as a user.
 * Returns the figures; the caller prints them.
 */
export async function measureStream({ stack, post, stored, org, token, busPrefix, tag, rate, seconds, cpuAccount }) {
  const receiver = await startCountingReceiver();
  const total0 = Math.round(rate * seconds);
  try {
    const stream = await post(
      `/api/organizations/${org.name}/audit-log/streams`,
      { type: 'https', url: `${receiver.url}/siem`, secret: 'bench-audit-stream-secret-0123456789' },
      token,
    );
    const cpu = cpuAccount(stack.procs);
    const t0 = Date.now();
    const base = await stored();
    // When the ingest had stored each tenth of the events: the stream can send only what is stored.
    const storedAt = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const n = (await stored()) - base;
        while (storedAt.length < 10 && n >= ((storedAt.length + 1) * total0) / 10) storedAt.push(Date.now() - t0);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const { total, publishedSeconds } = await publishPaced(stack.nats.connectOptions, {
      org,
      busPrefix,
      idPrefix: `${tag.slice(0, 6)}5a`,
      rate,
      seconds,
    });
    // Waits on progress: done when every event arrived, given up when nothing new came for 60 s.
    let last = -1;
    let lastChange = Date.now();
    while (receiver.arrivals.size < total && Date.now() - lastChange < 60_000) {
      await new Promise((r) => setTimeout(r, 100));
      if (receiver.arrivals.size !== last) [last, lastChange] = [receiver.arrivals.size, Date.now()];
    }
    watching = false;
    await watcher;
    const used = cpu();
    const all = [...receiver.arrivals.values()];
    const lags = all.map((a) => a.lagMs).sort((a, b) => a - b);
    const lastAt = Math.max(...all.map((a) => a.at));
    // The lag of the events published in the run's last quarter: a stream that falls behind shows it growing.
    const late = all
      .filter((a) => a.at - a.lagMs >= t0 + 0.75 * seconds * 1000)
      .map((a) => a.lagMs)
      .sort((a, b) => a - b);
    return {
      streamId: stream.id,
      total,
      publishedSeconds,
      received: receiver.arrivals.size,
      duplicates: receiver.duplicates,
      requests: receiver.requests,
      seconds: (lastAt - t0) / 1000,
      lag: { p50: pct(lags, 50), p99: pct(lags, 99), max: lags[lags.length - 1] ?? 0 },
      lateLag: { p50: pct(late, 50), p99: pct(late, 99) },
      storedSeconds: storedAt.length === 10 ? storedAt[9] / 1000 : null,
      cpu: used,
    };
  } finally {
    await receiver.close();
  }
}
