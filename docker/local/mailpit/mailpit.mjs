#!/usr/bin/env node
// A stand-in for the Mailpit image (docker/local/build-stand-ins.sh), with no dependency: keeps in
// memory what arrives on SMTP port 1025 and shows it on 8025 as Mailpit's API does, in part:
//   GET /readyz                       200 once listening
//   GET /api/v1/messages              { total, messages: [{ ID, From, To, Subject, Created }] }
//   GET /api/v1/message/<ID>/raw      the message as received
//   DELETE /api/v1/messages           forget every message
// `mailpit readyz` (the compose health check) is answered by the entry point script `mailpit`.
import http from 'node:http';
import net from 'node:net';

const UI_PORT = Number(process.env.MP_UI_PORT ?? 8025);
const SMTP_PORT = Number(process.env.MP_SMTP_PORT ?? 1025);

{
  const messages = [];
  let seq = 0;
  const address = (s) => ({ Name: '', Address: s.replace(/^.*<|>.*$/g, '').trim() });

  net
    .createServer((socket) => {
      let buffer = '';
      let data = false;
      let from = '';
      let to = [];
      const reply = (line) => socket.write(`${line}\r\n`);
      reply('220 mailpit stand-in ESMTP');
      socket.on('error', () => socket.destroy());
      socket.on('data', (chunk) => {
        buffer += chunk.toString('latin1');
        for (;;) {
          if (data) {
            const probe = `\r\n${buffer}`;
            const end = probe.indexOf('\r\n.\r\n');
            if (end < 0) return;
            const body = probe.slice(2, Math.max(2, end));
            buffer = probe.slice(end + 5);
            const text = Buffer.from(body.replace(/^\.\./gm, '.'), 'latin1').toString('utf8');
            const subject = /^Subject: (.*)$/im.exec(text)?.[1]?.trim() ?? '';
            seq += 1;
            messages.push({
              ID: String(seq),
              From: address(from),
              To: to.map(address),
              Subject: subject,
              Created: new Date().toISOString(),
              raw: text,
            });
            data = false;
            reply('250 OK: queued');
            continue;
          }
          const eol = buffer.indexOf('\r\n');
          if (eol < 0) return;
          const line = buffer.slice(0, eol);
          buffer = buffer.slice(eol + 2);
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === 'EHLO') reply('250-mailpit\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE 20971520');
          else if (verb === 'HELO') reply('250 mailpit');
          else if (verb === 'MAIL') {
            from = line.slice(line.indexOf(':') + 1).split(' ')[0];
            to = [];
            reply('250 OK');
          } else if (verb === 'RCPT') {
            to.push(line.slice(line.indexOf(':') + 1).split(' ')[0]);
            reply('250 OK');
          } else if (verb === 'DATA') {
            data = true;
            reply('354 End data with <CR><LF>.<CR><LF>');
          } else if (verb === 'RSET') {
            from = '';
            to = [];
            reply('250 OK');
          } else if (verb === 'NOOP') reply('250 OK');
          else if (verb === 'QUIT') {
            reply('221 Bye');
            socket.end();
            return;
          } else reply('502 Command not implemented');
        }
      });
    })
    .listen(SMTP_PORT, '0.0.0.0');

  http
    .createServer((req, res) => {
      const json = (status, body) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const url = new URL(req.url ?? '/', 'http://x');
      const raw = /^\/api\/v1\/message\/([^/]+)\/raw$/.exec(url.pathname);
      if (url.pathname === '/readyz') return json(200, { ok: true });
      if (url.pathname === '/api/v1/messages' && req.method === 'DELETE') {
        messages.length = 0;
        return json(200, { ok: true });
      }
      if (url.pathname === '/api/v1/messages') {
        const list = messages.map(({ raw: _raw, ...m }) => m).reverse();
        return json(200, { total: list.length, messages: list });
      }
      const found = raw && messages.find((m) => m.ID === raw[1]);
      if (found) {
        res.writeHead(200, { 'content-type': 'message/rfc822' });
        return res.end(found.raw);
      }
      return json(404, { error: 'not found' });
    })
    .listen(UI_PORT, '0.0.0.0');
}
