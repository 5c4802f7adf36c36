/**
 * `hubctl audit-streams …`: an organization's audit log streams (issue 39, decision 0411). They
 * belong to the organization's admins, so these commands act as one: with HUB_TOKEN, an admin's
 * token (the admin token reaches only the admin API, decision 0004).
 */
import { UsageError } from './args.mjs';

const enc = encodeURIComponent;
const streams = (org, rest = '') => `/api/organizations/${enc(org)}/audit-log/streams${rest}`;

/** The destination, as the create body (flat, with its `type`): inline or from a file, `-` for stdin. */
function body(f, readPayload) {
  const b = readPayload(f);
  if (typeof b.type !== 'string') throw new UsageError('the stream needs a "type": https, s3, splunk or datadog');
  return b;
}

const stateOf = (s) => (s.state === 'failing' && s.lastError ? `failing (${s.lastError})` : s.state);

function stateCommand(verb, past) {
  return {
    name: `audit-streams ${verb}`,
    usage: `audit-streams ${verb} <org> <stream-id>`,
    summary: `${verb[0].toUpperCase()}${verb.slice(1)} an audit log stream`,
    args: ['org', 'id'],
    auth: 'user',
    request: ({ org, id }) => ({ path: streams(org, `/${enc(id)}/${verb}`) }),
    print: (s, io) => io.out(`Audit log stream ${s.id} ${past}: ${stateOf(s)}`),
  };
}

export function auditStreamCommands(readPayload, printTable) {
  return [
    {
      name: 'audit-streams list',
      usage: 'audit-streams list <org>',
      summary: "List an organization's audit log streams with their state",
      args: ['org'],
      auth: 'user',
      request: ({ org }) => ({ method: 'GET', path: streams(org) }),
      print: (rows, io, _a, f) =>
        printTable(
          io,
          rows,
          [
            ['ID', (s) => s.id],
            ['TYPE', (s) => s.type],
            ['STATE', stateOf],
            ['LAST DELIVERED', (s) => s.lastDeliveredAt],
            ['DROPPED', (s) => s.dropped],
          ],
          { ...f, limit: Infinity },
          'audit log streams',
        ),
    },
    {
      name: 'audit-streams create',
      usage: "audit-streams create <org> (--payload '<json>' | --payload-file FILE)",
      summary:
        'Stream the audit log to https, s3, splunk or datadog: the body is the flat destination, e.g. {"type":"https","url":…,"secret":…}; FILE - reads stdin (keeps secrets out of the shell history)',
      args: ['org'],
      flags: { payload: 'string', 'payload-file': 'string' },
      auth: 'user',
      request: ({ org }, f) => ({ path: streams(org), body: body(f, readPayload) }),
      print: (s, io) => io.out(`Created audit log stream ${s.id} (${s.type}): ${stateOf(s)}`),
    },
    stateCommand('pause', 'paused'),
    stateCommand('resume', 'resumed'),
    {
      name: 'audit-streams test',
      usage: 'audit-streams test <org> <stream-id>',
      summary: "Send one synthetic record to the stream's destination and show its answer",
      args: ['org', 'id'],
      auth: 'user',
      request: ({ org, id }) => ({ path: streams(org, `/${enc(id)}/test`) }),
      print: (r, io) =>
        io.out(`${r.ok ? 'Delivered' : 'Not delivered'}: ${r.status ?? 'no answer'}${r.error ? ` (${r.error})` : ''}`),
    },
  ];
}
