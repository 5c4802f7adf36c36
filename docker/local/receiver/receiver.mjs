// A webhook receiver for the deploy test (apps/e2e-deploy/src/stack): runs in its own container on
// the compose network (the Kubernetes upgrade runs it on the host: PORT, default 8090), answers
// 200 to every POST and keeps what it got, per path:
//   POST /<path>                    a delivery (the hub's webhook-id header and the JSON body's event)
//   GET  /_deliveries?path=/<path>  [{ id, action, scope }] in arrival order
import http from 'node:http';

const byPath = new Map();
http
  .createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/_deliveries') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(byPath.get(url.searchParams.get('path')) ?? []));
    }
    if (req.method === 'GET' && url.pathname === '/_health') return res.end('ok');
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let event = {};
      try {
        event = JSON.parse(Buffer.concat(chunks).toString('utf8')).event ?? {};
      } catch {
        event = {};
      }
      const list = byPath.get(url.pathname) ?? [];
      list.push({
        id: String(req.headers['webhook-id'] ?? ''),
        action: String(event.action ?? ''),
        scope: String(event.scope ?? ''),
      });
      byPath.set(url.pathname, list);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  })
  .listen(Number(process.env.PORT ?? 8090), '0.0.0.0');
