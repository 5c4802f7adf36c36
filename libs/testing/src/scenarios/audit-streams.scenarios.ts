import { startHttpsReceiver, type StreamReceiver } from '../audit-stream-receivers';
import { http } from '../http-client';
import { addMember, makeOrg, makeUser, type TestUser } from '../hub-factory';
import { queryDatabase } from '../test-database';
import { type AuditStreamTarget, createStream, SECRET, type StreamView, streamsPath } from './audit-streams-helpers';

/** Managing audit log streams (issue 39): the API, its bounds and its access rules, in both run modes. */
export function auditStreamsScenarios(target: () => AuditStreamTarget): void {
  describe('audit log streams: the API', () => {
    let t: AuditStreamTarget;
    let admin: TestUser;
    let member: TestUser;
    let org: { id: string; name: string };
    let receiver: StreamReceiver;
    const call = <T = StreamView>(method: string, rest: string, body?: unknown, token = admin.token) =>
      http<T>(t.baseUrl, method, streamsPath(org.name, rest), { token, body });

    beforeAll(async () => {
      t = target();
      receiver = await startHttpsReceiver(SECRET);
      admin = await makeUser(t);
      member = await makeUser(t);
      org = await makeOrg(t, 'enterprise', [admin.name]);
      await addMember(t, org.name, member.name, 'write');
    });

    afterAll(() => receiver?.close());

    it('creates a stream from a flat body, answers hints only, and keeps the credentials sealed', async () => {
      const res = await call('POST', '', {
        type: 'https',
        url: `${receiver.url}/siem`,
        secret: SECRET,
        filter: ['org'],
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        type: 'https',
        state: 'active',
        url: `${receiver.url}/siem`,
        hints: { secret: `…${SECRET.slice(-4)}` },
        filter: ['org'],
        lastError: null,
        dropped: 0,
      });
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
      const [row] = await queryDatabase<{ credentials: Record<string, string> }>(
        t.databaseUrl,
        'SELECT credentials FROM organizations.audit_streams WHERE id = $1',
        [res.body.id],
      );
      expect(row.credentials['secret']).toMatch(/^v1\./);
      expect(JSON.stringify(row)).not.toContain(SECRET);
      const list = await call<StreamView[]>('GET', '');
      expect(list.body.map((s) => s.id)).toEqual([res.body.id]);
      // Its lastDeliveredAt may have moved since: the member's events were still on their way when it was created.
      const got = (await call('GET', `/${res.body.id}`)).body;
      expect({ ...got, lastDeliveredAt: null }).toEqual({ ...res.body, lastDeliveredAt: null });
    });

    it.each([
      [{ type: 'ftp', url: 'https://x.example' }, /^type must be one of https, s3, splunk, datadog/],
      [{ type: 'https', url: 'https://siem.example' }, /^secret is required for a https stream/],
      [{ type: 'https', secret: SECRET }, /^url is required for a https stream/],
      [
        { type: 'splunk', url: 'https://splunk.example', token: 'hec-token-1', apiKey: 'abcdefgh' },
        /^apiKey is not a field of a splunk stream/,
      ],
      [{ type: 'datadog', site: 'example.com', apiKey: 'abcdefgh' }, /^site must be one of datadoghq.com/],
      [
        { type: 's3', bucket: 'B', region: 'eu-west-1', accessKeyId: 'AKIA1', secretAccessKey: 'secretkey' },
        /^bucket must be an S3 bucket name/,
      ],
      [{ type: 'https', url: 'ftp://x.example', secret: SECRET }, /^url must be an absolute http or https URL/],
      [{ type: 'https', url: 'https://x.example', secret: 'short' }, /^secret must be 16..256 characters/],
      [
        { type: 'https', url: 'https://x.example', secret: SECRET, filter: ['nope'] },
        /^filter items must be action families/,
      ],
    ])('refuses %j with a 400 naming the field', async (body, message) => {
      const res = await call<{ error: string }>('POST', '', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    });

    it('is for admins of Enterprise organizations only', async () => {
      expect((await call('GET', '', undefined, member.token)).status).toBe(403);
      expect((await call('POST', '', { type: 'https', url: receiver.url, secret: SECRET }, member.token)).status).toBe(
        403,
      );
      const team = await makeOrg(t, 'team', [admin.name]);
      const res = await http<{ error: string }>(t.baseUrl, 'GET', streamsPath(team.name), { token: admin.token });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatch(/Enterprise/);
    });

    it('holds at most HUB_AUDIT_STREAMS_PER_ORG streams (4 here): the next is a 409', async () => {
      const full = await makeOrg(t, 'enterprise', [admin.name]);
      // Nowhere reachable (a blocked address): the full organization's events go to no receiver of the tests.
      const nowhere = { type: 'https', url: 'http://127.0.0.2:9/x', secret: SECRET };
      for (let i = 0; i < 4; i++) await createStream(t, admin.token, full.name, nowhere);
      const res = await http<{ error: string }>(t.baseUrl, 'POST', streamsPath(full.name), {
        token: admin.token,
        body: nowhere,
      });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatch(/already has 4 audit streams/);
    });

    it("pauses, resumes, replaces (keeping credentials left out), deletes; another organization's stream is 404", async () => {
      const s = await createStream(t, admin.token, org.name, {
        type: 'datadog',
        site: 'datadoghq.eu',
        apiKey: 'dd-key-12345678',
      });
      expect((await call('POST', `/${s.id}/pause`)).body.state).toBe('paused');
      expect((await call('POST', `/${s.id}/resume`)).body.state).toBe('active');
      const put = await call('PUT', `/${s.id}`, { type: 'datadog', site: 'us3.datadoghq.com' });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ site: 'us3.datadoghq.com', hints: { apiKey: '…5678' } });
      const retyped = await call<{ error: string }>('PUT', `/${s.id}`, { type: 'splunk', url: receiver.url });
      expect(retyped.status).toBe(400);
      expect(retyped.body.error).toBe('token is required for a splunk stream');
      const other = await makeOrg(t, 'enterprise', [admin.name]);
      const foreign = await http(t.baseUrl, 'GET', streamsPath(other.name, `/${s.id}`), { token: admin.token });
      expect(foreign.status).toBe(404);
      expect((await call('DELETE', `/${s.id}`)).body).toEqual({ deleted: true });
      expect((await call('GET', `/${s.id}`)).status).toBe(404);
      expect((await call<{ error: string }>('GET', '/not-an-id')).body.error).toMatch(/^streamId must be/);
    });

    it("tests a stream: one signed synthetic record, the destination's reply, a line in the delivery log", async () => {
      const s = await createStream(t, admin.token, org.name, {
        type: 'https',
        url: `${receiver.url}/test`,
        secret: SECRET,
      });
      const res = await call<{ ok: boolean; status: number; body: string }>('POST', `/${s.id}/test`);
      expect(receiver.problems).toEqual([]);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: true, status: 200, body: '{"ok":true}', error: null });
      expect(receiver.events.at(-1)).toMatchObject({ type: 'audit_stream.test' });
      const log = await call<{ items: { kind: string; ok: boolean; records: number }[] }>('GET', `/${s.id}/deliveries`);
      expect(log.body.items[0]).toMatchObject({ kind: 'test', ok: true, records: 1, status: 200 });
    });

    it('sends nothing to a blocked address (the SSRF guard of webhooks), however it is written', async () => {
      for (const url of [
        'http://169.254.169.254/latest/meta-data',
        'http://127.0.0.2:9/x',
        'http://[::ffff:10.0.0.1]/x',
      ]) {
        const s = await createStream(t, admin.token, org.name, { type: 'https', url, secret: SECRET });
        const res = await call<{ ok: boolean; error: string }>('POST', `/${s.id}/test`);
        expect(res.body).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/blocked address/) });
        await call('DELETE', `/${s.id}`);
      }
    });
  });
}
