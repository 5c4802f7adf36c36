// node bench/gateway/pg-count-proxy.mjs [listenPort=6432] [countPort=6433] [target=127.0.0.1:5432]
// A TCP proxy in front of Postgres that counts round trips: every simple query ('Q') and every
// Sync ('S', the end of an extended-protocol exchange) a client sends is one. GET
// http://127.0.0.1:<countPort>/ answers the count so far (what bench:jobs reads as
// BENCH_PG_COUNT_URL); /statements answers the simple queries' and parsed statements' texts with
// their counts, most frequent first. Point the bench's database URL at the listen port
// (BENCH_PG_ADMIN_URL=postgres://postgres@127.0.0.1:6432/test). No TLS: the client must not ask
// for it (node-postgres does not by default).
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer } from 'node:net';

const [listenPort = '6432', countPort = '6433', target = '127.0.0.1:5432'] = process.argv.slice(2);
const [targetHost, targetPort] = target.split(':');
let trips = 0;
const texts = new Map();

/** Reads the frontend's messages as they pass: the first is the untyped startup packet. */
function counter() {
  let buf = Buffer.alloc(0);
  let started = false;
  return (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      if (!started) {
        if (buf.length < 4) return;
        const len = buf.readInt32BE(0);
        if (buf.length < len) return;
        // An SSLRequest or GSSENCRequest is answered 'N' and followed by the real startup packet.
        const code = len === 8 ? buf.readInt32BE(4) : 0;
        if (code !== 80877103 && code !== 80877104) started = true;
        buf = buf.subarray(len);
        continue;
      }
      if (buf.length < 5) return;
      const type = String.fromCharCode(buf[0]);
      const len = buf.readInt32BE(1);
      if (buf.length < len + 1) return;
      const body = buf.subarray(5, len + 1);
      if (type === 'Q' || type === 'S') trips++;
      if (type === 'Q') note(body.toString('utf8', 0, body.length - 1));
      // Parse: a statement name (NUL-terminated), then its text.
      if (type === 'P') note(body.toString('utf8', body.indexOf(0) + 1, body.indexOf(0, body.indexOf(0) + 1)));
      buf = buf.subarray(len + 1);
    }
  };
}

function note(text) {
  const key = text.replace(/\s+/g, ' ').trim().slice(0, 160);
  texts.set(key, (texts.get(key) ?? 0) + 1);
}

createServer((client) => {
  const server = connect(Number(targetPort), targetHost);
  const count = counter();
  client.on('data', (chunk) => {
    count(chunk);
    server.write(chunk);
  });
  server.pipe(client);
  const close = () => (client.destroy(), server.destroy());
  client.on('error', close).on('close', close);
  server.on('error', close).on('close', close);
}).listen(Number(listenPort), '127.0.0.1');

createHttpServer((req, res) => {
  if (req.url === '/statements') {
    const sorted = [...texts].sort((a, b) => b[1] - a[1]);
    return res.end(sorted.map(([t, n]) => `${n}\t${t}`).join('\n') + '\n');
  }
  res.end(String(trips));
}).listen(Number(countPort), '127.0.0.1', () =>
  console.log(`counting round trips to ${target} on :${listenPort}; the count on http://127.0.0.1:${countPort}/`),
);
