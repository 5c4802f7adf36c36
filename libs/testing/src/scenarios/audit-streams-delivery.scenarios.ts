import {
  type S3Receiver,
  startHttpsReceiver,
  startS3Receiver,
  startSplunkReceiver,
  type StreamReceiver,
} from '../audit-stream-receivers';
import { eventually } from '../eventually';
import { http } from '../http-client';
import { makeOrg, makeUser, type TestUser } from '../hub-factory';
import {
  arrived,
  AUDIT_STREAM_RETENTION_MS,
  type AuditStreamTarget,
  createStream,
  exportedIds,
  makeAuditEvents,
  SECRET,
  type StreamView,
  streamOrder,
  streamsPath,
} from './audit-streams-helpers';

const SPLUNK_TOKEN = 'splunk-hec-token-for-tests';
const DD_KEY = 'dd-api-key-for-tests';
const S3_KEY =
  /^[a-z0-9-]+\/\d{4}\/\d{2}\/\d{2}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}\.json\.gz$/;

/** Audit events reaching the four real protocols (issue 39): complete, in order, each with its id. */
export function auditStreamDeliveryScenarios(target: () => AuditStreamTarget): void {
  describe('audit log streams: delivery', () => {
    let t: AuditStreamTarget;
    let admin: TestUser;
    let https: StreamReceiver;
    let splunk: StreamReceiver;
    let s3: S3Receiver;

    beforeAll(async () => {
      t = target();
      [https, splunk, s3] = await Promise.all([
        startHttpsReceiver(SECRET),
        startSplunkReceiver(SPLUNK_TOKEN),
        startS3Receiver(),
      ]);
      admin = await makeUser(t);
    });

    afterAll(async () => {
      await Promise.all([https?.close(), splunk?.close(), s3?.close()]);
    });

    it('sends every event recorded after creation to S3, Splunk HEC, Datadog and an HTTPS endpoint, in order, once each', async () => {
      const org = await makeOrg(t, 'enterprise', [admin.name], 'stream');
      // Both events of its creation (org.create, org.add_user of its one admin): the ingest is
      // asynchronous, and one seen late would count as recorded after the streams.
      const before = await eventually(
        () => exportedIds(t, admin.token, org.name),
        (ids) => ids.length >= 2,
      );
      const streams = await Promise.all([
        createStream(t, admin.token, org.name, { type: 'https', url: `${https.url}/siem`, secret: SECRET }),
        createStream(t, admin.token, org.name, { type: 'splunk', url: splunk.url, token: SPLUNK_TOKEN }),
        createStream(t, admin.token, org.name, { type: 'datadog', site: 'datadoghq.eu', apiKey: DD_KEY }),
        createStream(t, admin.token, org.name, {
          type: 's3',
          bucket: s3.bucket,
          prefix: org.name,
          region: 'us-east-1',
          endpoint: s3.endpoint,
          accessKeyId: s3.accessKeyId,
          secretAccessKey: s3.secretAccessKey,
        }),
      ]);
      await makeAuditEvents(t, org.name, 6);
      const all = await eventually(
        () => exportedIds(t, admin.token, org.name),
        (ids) => ids.length >= before.length + 12,
      );
      const sent = await streamOrder(t, all.slice(before.length));
      expect(sent).toHaveLength(12);
      const s3Events = async (): Promise<string[]> =>
        arrived({ events: (await s3.objects(org.name)).flatMap((o) => o.events) }, sent);
      for (const r of [https, splunk, t.datadog]) {
        await eventually(
          async () => arrived(r, sent),
          (ids) => ids.length === sent.length,
          30_000,
        );
        expect(arrived(r, sent)).toEqual(sent);
        expect(r.problems).toEqual([]);
      }
      expect(await eventually(s3Events, (ids) => ids.length === sent.length, 30_000)).toEqual(sent);
      const objects = await s3.objects(org.name);
      for (const o of objects) expect(o.key).toMatch(S3_KEY);
      // The records are the export's events: same ids, same fields.
      const first = https.events.find((e) => e._id === sent[0]);
      expect(first).toMatchObject({
        _id: sent[0],
        type: expect.stringMatching(/^org\./),
        createdAt: expect.any(String),
      });
      const log = await http<{ items: { kind: string; ok: boolean; records: number }[] }>(
        t.baseUrl,
        'GET',
        streamsPath(org.name, `/${streams[0].id}/deliveries`),
        { token: admin.token },
      );
      expect(
        log.body.items.filter((d) => d.kind === 'batch' && d.ok).reduce((n, d) => n + d.records, 0),
      ).toBeGreaterThanOrEqual(12);
      const view = await http<StreamView>(t.baseUrl, 'GET', streamsPath(org.name, `/${streams[0].id}`), {
        token: admin.token,
      });
      expect(view.body).toMatchObject({ state: 'active', lastError: null, lastDeliveredAt: expect.any(String) });
    }, 120_000);

    it('a paused stream keeps events up to the retention window, then drops the older ones and says how many', async () => {
      const org = await makeOrg(t, 'enterprise', [admin.name], 'paused');
      const s = await createStream(t, admin.token, org.name, {
        type: 'https',
        url: `${https.url}/paused`,
        secret: SECRET,
      });
      const path = (rest: string): string => streamsPath(org.name, `/${s.id}${rest}`);
      expect((await http<StreamView>(t.baseUrl, 'POST', path('/pause'), { token: admin.token })).body.state).toBe(
        'paused',
      );
      const before = await eventually(
        () => exportedIds(t, admin.token, org.name),
        (ids) => ids.length >= 2, // org.create and org.add_user, as above
      );
      await makeAuditEvents(t, org.name, 1);
      const old = (
        await eventually(
          () => exportedIds(t, admin.token, org.name),
          (ids) => ids.length >= before.length + 2,
        )
      ).slice(before.length);
      const expiredAt = Date.now() + AUDIT_STREAM_RETENTION_MS + 1000;
      await eventually(
        async () => Date.now(),
        (now) => now > expiredAt,
        AUDIT_STREAM_RETENTION_MS + 5000,
        500,
      );
      await makeAuditEvents(t, org.name, 1);
      const fresh = (
        await eventually(
          () => exportedIds(t, admin.token, org.name),
          (ids) => ids.length >= before.length + 4,
        )
      ).slice(before.length + 2);
      await http(t.baseUrl, 'POST', path('/resume'), { token: admin.token });
      await eventually(
        async () => arrived(https, fresh),
        (ids) => ids.length === fresh.length,
        30_000,
      );
      expect(arrived(https, fresh)).toEqual(await streamOrder(t, fresh));
      expect(arrived(https, old)).toEqual([]);
      const view = await http<StreamView>(t.baseUrl, 'GET', path(''), { token: admin.token });
      // The organization's own first events may still have been on their way when the stream was made: they wait and drop too.
      expect(view.body.dropped).toBeGreaterThanOrEqual(old.length);
      const log = await http<{ items: { kind: string; records: number; error: string }[] }>(
        t.baseUrl,
        'GET',
        path('/deliveries'),
        { token: admin.token },
      );
      const drops = log.body.items.filter((d) => d.kind === 'dropped');
      expect(drops.reduce((n, d) => n + d.records, 0)).toBe(view.body.dropped);
      expect(drops[0]).toMatchObject({ error: expect.stringMatching(/waited longer than .* days and were dropped/) });
    }, 120_000);

    it('a stream failing past the threshold turns failing with its error, mails the admins, retries, and recovers by itself', async () => {
      const down = await startHttpsReceiver(SECRET);
      try {
        down.down = true;
        const org = await makeOrg(t, 'enterprise', [admin.name], 'failing');
        const s = await createStream(t, admin.token, org.name, { type: 'https', url: `${down.url}/x`, secret: SECRET });
        const get = () => http<StreamView>(t.baseUrl, 'GET', streamsPath(org.name, `/${s.id}`), { token: admin.token });
        await makeAuditEvents(t, org.name, 1);
        const failing = await eventually(get, (r) => r.body.state === 'failing', 30_000);
        expect(failing.body).toMatchObject({ state: 'failing', lastError: expect.stringMatching(/^HTTP 503/) });
        // The organization's admins hear of it by mail (through the notifications service), once.
        const mailsFor = (state: RegExp) =>
          t.smtp.mails.filter(
            (m) => m.to.includes(`${admin.name}@example.com`) && m.subject.includes(s.id) && state.test(m.subject),
          );
        const failingMail = await eventually(
          async () => mailsFor(/is failing$/),
          (m) => m.length > 0,
          30_000,
        );
        expect(failingMail[0].subject).toBe(`The audit log stream ${s.id} of ${org.name} is failing`);
        expect(failingMail[0].raw).toContain('Last error: HTTP 503');
        down.down = false;
        const recovered = await eventually(get, (r) => r.body.state === 'active', 90_000, 250);
        expect(recovered.body).toMatchObject({ state: 'active', lastError: null });
        await eventually(
          async () => mailsFor(/delivers again$/),
          (m) => m.length > 0,
          30_000,
        );
        expect(mailsFor(/is failing$/)).toHaveLength(1);
        expect(down.problems).toEqual([]);
        const ids = await exportedIds(t, admin.token, org.name);
        expect(arrived(down, ids).length).toBeGreaterThanOrEqual(2);
      } finally {
        await down.close();
      }
    }, 150_000);
  });
}
