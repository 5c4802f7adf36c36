import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtApp, eventually, freePort, type RunningProcess, startApp, startHttpsReceiver } from '@hub/testing';
import { type CliResult, runHubctl } from './support/hubctl-runner';

/**
 * hubctl against a real all-in-one hub (`node dist/apps/hub/main.js`): embedded PostgreSQL in a
 * fresh data directory and the in-process bus, so no Postgres or NATS is needed. hubctl finds
 * the admin token the way it does on a laptop: in $HUB_DATA_DIR/admin-token.
 */
describe('hubctl against the all-in-one hub', () => {
  let hub: RunningProcess;
  let dataDir: string;
  let baseUrl: string;
  const cli = (args: string[], env: Record<string, string> = {}, stdin?: string): Promise<CliResult> =>
    runHubctl(args, { HUB_URL: baseUrl, HUB_DATA_DIR: dataDir, ...env }, stdin);

  beforeAll(async () => {
    if (!existsSync(builtApp('hub')))
      throw new Error(`${builtApp('hub')} is missing: run \`npx nx build hub\` (nx test-e2e e2e-deploy does)`);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    dataDir = mkdtempSync(join(tmpdir(), 'e2e-deploy-hub-'));
    hub = startApp('hub', {
      PORT: String(port),
      HOST: '127.0.0.1',
      HUB_DATA_DIR: dataDir,
      // The audit-streams commands stream to a receiver on loopback, flushed at once.
      HUB_AUDIT_STREAM_ALLOWED_NETWORKS: '127.0.0.1/32',
      HUB_AUDIT_STREAM_FLUSH_MS: '200',
    });
    // Printed after the listener is up and the demo user exists.
    await hub.waitForOutput(/Admin token/, 120_000);
  }, 150_000);

  afterAll(async () => {
    await hub?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates a user with a one-line summary, or the JSON with --json', async () => {
    const alice = await cli([
      'users',
      'create',
      'alice',
      '--email',
      'alice@example.com',
      '--fullname',
      'Alice Liddell',
    ]);
    expect(alice).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^Created user alice \(id [0-9a-f]{24}\)\n$/),
      stderr: '',
    });
    const bob = await cli(['users', 'create', 'bob', '--email', 'bob@example.com', '--json']);
    expect(bob.code).toBe(0);
    expect(JSON.parse(bob.stdout)).toMatchObject({ name: 'bob', email: 'bob@example.com' });
  });

  it('shows the hub error for a duplicate user on stderr and exits 1', async () => {
    const dup = await cli(['users', 'create', 'alice', '--email', 'alice@example.com']);
    expect(dup).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^hubctl: .*alice.*already exists.*\(HTTP 409\)\n$/),
    });
  });

  it('creates an organization with its admin and adds a member', async () => {
    const org = await cli(['orgs', 'create', 'acme', '--plan', 'team', '--admin', 'alice', '--fullname', 'Acme Corp']);
    expect(org).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Created organization acme \(plan team, id [0-9a-f]{24}\), admins: alice\n$/),
    });
    const member = await cli(['orgs', 'add-member', 'acme', 'bob', '--role', 'write']);
    expect(member).toMatchObject({ code: 0, stdout: 'bob is now write in acme\n' });
  });

  it('prints a working token alone on stdout, with the shown-once warning on stderr', async () => {
    const res = await cli(['tokens', 'create', 'alice', '--role', 'write', '--name', 'ci token']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^hf_[A-Za-z0-9]{34}\n$/);
    expect(res.stderr).toMatch(/only time the token is shown/);
    const token = res.stdout.trim();

    const whoami = await fetch(`${baseUrl}/api/whoami-v2`, { headers: { authorization: `Bearer ${token}` } });
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({
      name: 'alice',
      orgs: [expect.objectContaining({ name: 'acme', roleInOrg: 'admin', plan: 'team' })],
      auth: { accessToken: { displayName: 'ci token', role: 'write' } },
    });
    const members = await fetch(`${baseUrl}/api/organizations/acme/members`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await members.json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ user: 'bob', role: 'write' })]),
    );
  });

  it("lists users, a user's tokens (never a value) and organizations, searched, with a bad limit named", async () => {
    const users = await cli(['users', 'list', '--search', 'example.com']);
    expect(users.code).toBe(0);
    const userLines = users.stdout.trimEnd().split('\n');
    expect(userLines[0]).toMatch(/^NAME +EMAIL +CREATED +SCIM ORG$/);
    expect(userLines.slice(1).map((l) => l.split(/ +/)[0])).toEqual(expect.arrayContaining(['alice', 'bob']));
    const tokens = await cli(['tokens', 'list', 'alice']);
    expect(tokens.code).toBe(0);
    expect(tokens.stdout).toMatch(
      /^ID +NAME +ROLE +LAST4 +LAST USED +REVOKED\n[0-9a-f]{24} +ci token +write +[A-Za-z0-9]{4} /,
    );
    expect(tokens.stdout).not.toMatch(/hf_/);
    const orgs = await cli(['orgs', 'list', '--search', 'acm']);
    expect(orgs).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^NAME +PLAN +MEMBERS\nacme +team +2\n$/),
      stderr: '',
    });
    expect(await cli(['orgs', 'list', '--search', 'no-such-org-here'])).toMatchObject({
      code: 0,
      stdout: 'no organizations\n',
    });
    const bad = await cli(['users', 'list', '--limit', '1000']);
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/limit must be at most 100.*\(HTTP 400\)/) });
  });

  it('publishes an event from --payload, --payload-file and stdin', async () => {
    // Payloads fit their subjects' published schemas: /admin/events refuses what a consumer would (decision 0015).
    const repo = { type: 'model', name: 'acme/m' };
    const inline = await cli([
      'events',
      'publish',
      'hub.events.repo.update',
      '--payload',
      JSON.stringify({ event: { action: 'update', scope: 'repo' }, repo }),
    ]);
    expect(inline).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Published hub\.events\.repo\.update \(id [0-9a-f]{24}\)\n$/),
    });
    const file = join(dataDir, 'event.json');
    writeFileSync(
      file,
      JSON.stringify({
        event: { action: 'create', scope: 'discussion' },
        repo,
        actor: { _id: 'abcdefabcdefabcdefabcdef', avatar: '', user: 'bob' },
        discussion: {
          id: 'abcdefabcdefabcdefabcdef',
          num: 1,
          title: 'A discussion',
          status: 'open',
          isPullRequest: false,
        },
      }),
    );
    const fromFile = await cli(['events', 'publish', 'hub.events.discussion.create', '--payload-file', file, '--json']);
    expect(fromFile.code).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toEqual({
      subject: 'hub.events.discussion.create',
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
    const fromStdin = await cli(
      ['events', 'publish', 'hub.events.repo.update', '--payload-file', '-'],
      {},
      JSON.stringify({ event: { action: 'update' }, repo }),
    );
    expect(fromStdin.code).toBe(0);
    const unfit = await cli(['events', 'publish', 'hub.events.repo.update', '--payload-file', '-'], {}, '{"a":1}');
    expect(unfit).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/payload does not fit hub\.events\.repo\.update: .*repo/),
    });
  });

  it('sends repos create with the fields the admin API validates', async () => {
    const bad = await cli(['repos', 'create', 'acme/model-1', '--type', 'nonsense']);
    expect(bad).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^hubctl: type must be one of .*\(HTTP 400\)\n$/),
    });
    const ok = await cli(['repos', 'create', 'acme/model-1', '--type', 'model', '--private', '--storage', '1024']);
    expect(ok).toEqual({ code: 0, stdout: 'Added private model repository acme/model-1\n', stderr: '' });
  });

  it('exits 2 with the usage on a bad command line, without calling the hub', async () => {
    const unknown = await cli(['frobnicate']);
    expect(unknown).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('Commands:') });
    const missing = await cli(['users', 'create', 'carol']);
    expect(missing).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/missing --email[\s\S]*Usage: npm run hubctl -- users create/),
    });
    const badJson = await cli(['events', 'publish', 'hub.events.repo.update', '--payload', '{not json']);
    expect(badJson).toMatchObject({ code: 2, stderr: expect.stringContaining('--payload is not valid JSON') });
    // None of the above reached the hub: carol does not exist.
    expect((await cli(['tokens', 'create', 'carol'])).code).toBe(1);
  });

  it('prints help and per-command usage with exit 0', async () => {
    const help = await cli(['help']);
    expect(help.code).toBe(0);
    for (const c of [
      'users create',
      'tokens create',
      'orgs create',
      'orgs add-member',
      'repos create',
      'events publish',
    ])
      expect(help.stdout).toContain(c);
    const one = await cli(['orgs', 'create', '--help']);
    expect(one).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Usage: npm run hubctl -- orgs create <name> --plan/),
    });
  });

  it('prefers HUB_ADMIN_TOKEN to the token file, and says so when it has neither', async () => {
    expect(readFileSync(join(dataDir, 'admin-token'), 'utf8')).toMatch(/^hubadmin_/);
    const wrong = await cli(['users', 'create', 'dave', '--email', 'dave@example.com'], {
      HUB_ADMIN_TOKEN: 'not-the-admin-token-at-all',
    });
    expect(wrong).toMatchObject({ code: 1, stderr: expect.stringMatching(/\(HTTP 401\)/) });
    const none = await cli(['users', 'create', 'dave', '--email', 'dave@example.com'], {
      HUB_DATA_DIR: join(dataDir, 'nowhere'),
    });
    expect(none).toMatchObject({ code: 1, stderr: expect.stringContaining('no admin token') });
  });

  it("manages an organization's audit log streams as one of its admins (HUB_TOKEN): create from stdin, list, test, pause, resume", async () => {
    const secret = 'hubctl-audit-stream-secret-0123';
    const receiver = await startHttpsReceiver(secret);
    try {
      expect((await cli(['users', 'create', 'carol', '--email', 'carol@example.com'])).code).toBe(0);
      expect((await cli(['orgs', 'create', 'ledger', '--plan', 'enterprise', '--admin', 'carol'])).code).toBe(0);
      const token = (await cli(['tokens', 'create', 'carol', '--role', 'write'])).stdout.trim();
      const noToken = await cli(['audit-streams', 'list', 'ledger']);
      expect(noToken).toMatchObject({ code: 1, stderr: expect.stringContaining('set HUB_TOKEN') });
      const as = { HUB_TOKEN: token };
      expect(await cli(['audit-streams', 'list', 'ledger'], as)).toMatchObject({
        code: 0,
        stdout: 'no audit log streams\n',
      });

      const destination = JSON.stringify({ type: 'https', url: `${receiver.url}/siem`, secret });
      const created = await cli(['audit-streams', 'create', 'ledger', '--payload-file', '-'], as, destination);
      expect(created).toMatchObject({
        code: 0,
        stdout: expect.stringMatching(/^Created audit log stream [0-9a-f]{24} \(https\): active\n$/),
      });
      const id = /stream ([0-9a-f]{24})/.exec(created.stdout)?.[1] ?? '';
      const list = await cli(['audit-streams', 'list', 'ledger'], as);
      expect(list.stdout.split('\n')[0]).toMatch(/^ID +TYPE +STATE +LAST DELIVERED +DROPPED$/);
      expect(list.stdout.split('\n')[1]).toMatch(new RegExp(`^${id} +https +active `));

      expect(await cli(['audit-streams', 'test', 'ledger', id], as)).toMatchObject({
        code: 0,
        stdout: 'Delivered: 200\n',
      });
      expect(await cli(['audit-streams', 'pause', 'ledger', id], as)).toMatchObject({
        code: 0,
        stdout: `Audit log stream ${id} paused: paused\n`,
      });
      expect(await cli(['audit-streams', 'resume', 'ledger', id], as)).toMatchObject({
        code: 0,
        stdout: `Audit log stream ${id} resumed: active\n`,
      });
      // The stream carries what happens next in the organization.
      expect((await cli(['orgs', 'add-member', 'ledger', 'alice', '--role', 'read'])).code).toBe(0);
      await eventually(
        async () => receiver.events.filter((e) => e['type'] === 'org.add_user'),
        (events) => events.length > 0,
        30_000,
      );
      expect(receiver.problems).toEqual([]);
      // Another organization's stream, or a bad body, is the hub's clear refusal.
      expect(await cli(['audit-streams', 'create', 'ledger', '--payload', '{"url":"x"}'], as)).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('needs a "type"'),
      });
      expect(await cli(['audit-streams', 'pause', 'acme', id], as)).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/HTTP 40[34]/),
      });
    } finally {
      await receiver.close();
    }
  });

  it('exits 1 with a hint when the hub cannot be reached', async () => {
    const port = await freePort();
    const res = await cli(['users', 'create', 'erin', '--email', 'erin@example.com'], {
      HUB_URL: `http://127.0.0.1:${port}`,
    });
    expect(res).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`cannot reach the hub at http://127.0.0.1:${port}`),
    });
  });
});
