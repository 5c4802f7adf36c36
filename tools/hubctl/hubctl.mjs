#!/usr/bin/env node
/**
 * hubctl: the admin CLI over the hub's admin HTTP API (`npm run hubctl -- help`).
 * Plain Node 20 ESM with no dependencies and no build step, so it runs from a bare checkout.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, UsageError } from './args.mjs';
import { backup, BackupError, restore } from './backup.mjs';
import { BACKUP_USAGE, commandUsage, findCommand, globalUsage, RESTORE_USAGE } from './commands.mjs';

/** The hub said no, or could not be asked: exit 1. */
class HubError extends Error {}

const io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

function adminToken(env) {
  if (env.HUB_ADMIN_TOKEN) return env.HUB_ADMIN_TOKEN;
  // Where the all-in-one hub keeps the token it generated when HUB_ADMIN_TOKEN was unset.
  const file = resolve(env.HUB_DATA_DIR || './data', 'admin-token');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    throw new HubError(`no admin token: set HUB_ADMIN_TOKEN (no ${file} to read it from)`);
  }
}

/** An organization admin's token, for the commands that act as one (audit-streams). */
function userToken(env) {
  if (env.HUB_TOKEN) return env.HUB_TOKEN;
  throw new HubError("this command acts as an organization admin: set HUB_TOKEN to that admin's access token");
}

async function callHub(env, { method = 'POST', path, body }, auth = 'admin') {
  const base = (env.HUB_URL || 'http://localhost:8080').replace(/\/+$/, '');
  const token = auth === 'user' ? userToken(env) : adminToken(env);
  let res;
  try {
    res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (e) {
    const cause = e.cause?.code ?? e.cause?.message ?? e.message;
    throw new HubError(`cannot reach the hub at ${base} (${cause}); is it running? HUB_URL sets the address`);
  }
  const text = await res.text();
  let answer;
  try {
    answer = text ? JSON.parse(text) : {};
  } catch {
    answer = undefined;
  }
  // The hub's errors are {"error": "..."}; anything else (a proxy's HTML page) is shown as text.
  if (!res.ok) throw new HubError(`${answer?.error ?? (text.slice(0, 200) || res.statusText)} (HTTP ${res.status})`);
  return answer ?? text;
}

async function run(cmd, argv, env) {
  const { positionals, flags } = parseArgs(argv, { ...cmd.flags, json: 'boolean', help: 'boolean' });
  if (flags.help) {
    io.out(commandUsage(cmd));
    return;
  }
  if (positionals.length !== cmd.args.length) {
    const want = cmd.args.map((a) => `<${a}>`).join(' ');
    throw new UsageError(
      positionals.length < cmd.args.length
        ? `missing ${want}`
        : `unexpected argument "${positionals[cmd.args.length]}"`,
    );
  }
  const missing = (cmd.required ?? []).filter((name) => flags[name] === undefined);
  if (missing.length > 0) throw new UsageError(`missing ${missing.map((m) => `--${m}`).join(' and ')}`);
  const args = Object.fromEntries(cmd.args.map((name, i) => [name, positionals[i]]));
  const answer = await callHub(env, await cmd.request(args, flags), cmd.auth);
  if (flags.json) io.out(JSON.stringify(answer, null, 2));
  else cmd.print(answer, io, args, flags);
}

/** backup and restore run PostgreSQL's tools on this machine, not an admin API call. */
const DATABASE_COMMANDS = {
  backup: { run: backup, usage: BACKUP_USAGE },
  restore: { run: restore, usage: RESTORE_USAGE },
};

function runDatabaseCommand(name, argv, env) {
  const cmd = DATABASE_COMMANDS[name];
  try {
    const { positionals, flags } = parseArgs(argv, { 'database-url': 'string', help: 'boolean' });
    if (flags.help) return io.out(cmd.usage);
    if (positionals.length !== 1)
      throw new UsageError(positionals.length === 0 ? 'missing <file>' : `unexpected argument "${positionals[1]}"`);
    cmd.run(positionals[0], env, flags, io);
  } catch (e) {
    if (e instanceof UsageError) e.usage ??= cmd.usage;
    if (e instanceof BackupError) throw new HubError(e.message);
    throw e;
  }
}

async function main(argv, env) {
  const [group, verb, ...rest] = argv;
  if (group === undefined) throw new UsageError('no command given', globalUsage());
  if (DATABASE_COMMANDS[group]) return runDatabaseCommand(group, argv.slice(1), env);
  if (group === 'help' || group === '--help' || group === '-h') {
    const cmd = verb && findCommand(verb, rest[0]);
    if (verb && !cmd)
      throw new UsageError(`unknown command "${[verb, rest[0]].filter(Boolean).join(' ')}"`, globalUsage());
    io.out(cmd ? commandUsage(cmd) : globalUsage());
    return;
  }
  const cmd = findCommand(group, verb);
  if (!cmd) throw new UsageError(`unknown command "${[group, verb].filter(Boolean).join(' ')}"`, globalUsage());
  try {
    await run(cmd, rest, env);
  } catch (e) {
    if (e instanceof UsageError) e.usage ??= commandUsage(cmd);
    throw e;
  }
}

main(process.argv.slice(2), process.env).catch((e) => {
  const usage = e instanceof UsageError;
  io.err(`hubctl: ${usage || e instanceof HubError ? e.message : e.stack}${usage ? `\n\n${e.usage}` : ''}`);
  process.exitCode = usage ? 2 : 1;
});
