// The loopback receivers of the noisy-neighbour bench (noisy.mjs). Run as a child process
// (`fork`), it serves the noisy user's two receivers (one answering after 30 s, one answering 500
// at once) in an event loop of their own: in the bench's own process, the noise's hundreds of
// requests a second would delay the victim's receipts the bench times, which is the bench, not the hub.
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Wall-clock ms with sub-ms precision (as servers.mjs). */
const wallNow = () => performance.timeOrigin + performance.now();

/** A loopback receiver: `answer` says how (status, delay); first receipts by "kind|action". */
export async function receiver(answer) {
  const seen = new Map();
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      requests++;
      const kind = (req.url ?? '').split('/')[1];
      const p = JSON.parse(Buffer.concat(chunks).toString());
      const key = `${kind}|${p.event.action}`;
      if (!seen.has(key)) seen.set(key, wallNow());
      const { status, delayMs } = answer;
      const reply = () => !res.destroyed && res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      if (delayMs > 0) setTimeout(reply, delayMs).unref();
      else reply();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: (kind) => `http://127.0.0.1:${server.address().port}/${kind}`,
    seen,
    requests: () => requests,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))),
  };
}

/** The event loop's delay since the last call (p99 and max, ms), then reset. */
export function loopDelayMeter() {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  return () => {
    const out = { p99: +(h.percentile(99) / 1e6).toFixed(1), max: +(h.max / 1e6).toFixed(1) };
    h.reset();
    return out;
  };
}

if (process.send) {
  const slow = await receiver({ status: 200, delayMs: 30_000 });
  const failing = await receiver({ status: 500, delayMs: 0 });
  process.on('message', async (m) => {
    if (m === 'counts') process.send({ counts: { slow: slow.requests(), failing: failing.requests() } });
    if (m === 'close') {
      await Promise.all([slow.close(), failing.close()]);
      process.disconnect();
    }
  });
  process.send({ urls: { slow: slow.url('noise'), failing: failing.url('noise') } });
}
