// One server under test, in its own process so it does not share an event loop with the load
// generator. Usage (by run.mjs): node server.mjs <bare|receiver> <compiled lib dir> <secret>
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [kind, libDir, secret] = process.argv.slice(2);

async function start() {
  if (kind === 'bare') {
    // The baseline: node:http reading the body (as any receiver must) and answering 200 {},
    // written as cheaply as the receiver writes its answers (with a Content-Length).
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': 2 });
        res.end('{}');
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server.address().port;
  }
  const { createWebhooksServer } = createRequire(import.meta.url)(join(libDir, 'index.js'));
  // Start-up lines would interleave with the bench's output; errors still show.
  const quiet = {
    log: () => undefined,
    warn: () => undefined,
    error: (message, error) => console.error(message, error),
  };
  const server = createWebhooksServer({ secret, port: 0, host: '127.0.0.1', logger: quiet });
  server.add(function noop() {
    return undefined;
  });
  return (await server.listen()).port;
}

start().then((port) => process.send({ port }));
// A clean exit on SIGINT lets `node --cpu-prof` write its profile when profiling a server.
process.on('SIGINT', () => process.exit(0));
// run.mjs asks for CPU time around the measured window: it tells how busy the server was and
// what one request costs, which stays meaningful even when the load generator is the limit.
process.on('message', (message) => {
  if (message === 'cpu') process.send({ cpu: process.cpuUsage() });
});
