import { randomBytes } from 'node:crypto';
import { http } from '../http-client';
import { addMember, makeOrg, makeToken, makeUser, type TestUser } from '../hub-factory';
import { queryDatabase } from '../test-database';
import {
  type AccessTarget,
  type AuditCutOffTarget,
  ENDS_WITHIN_MS,
  cancelJob,
  openPaused,
  openSse,
  runLoopingJob,
} from './access-helpers';

/** Issue 22 item 5 (decision 0014): open answers end with the token or the access they were opened with. */

/** Job log, event and metric streams end within ENDS_WITHIN_MS of the revocation of their token or the loss of the member's access (item 5). */
export function liveStreamsScenarios(target: () => AccessTarget): void {
  describe('open job streams end with their access (issue 22 item 5)', () => {
    let t: AccessTarget;
    const kinds = ['logs', 'events', 'metrics'] as const;
    const first = () => t.gateways[0];
    const last = () => t.gateways[t.gateways.length - 1];

    beforeAll(() => {
      t = target();
    });

    it("a token's revocation (through another replica) ends its own streams, and only its own", async () => {
      const user = await makeUser(t, 'write', 'stream-rev');
      const job = await runLoopingJob(t, user.token, user.name);
      const tokens = [user.token, (await makeToken(t, user.name)).token, (await makeToken(t, user.name)).token];
      const streams = await Promise.all(
        kinds.map((k, i) => openSse(`${first()}/api/jobs/${user.name}/${job}/${k}`, tokens[i])),
      );
      try {
        // As in the report: the log stream is delivering lines when the token is revoked.
        await streams[0].received('data: ');
        for (let i = 0; i < kinds.length; i++) {
          const revoked = await http(last(), 'POST', '/api/credentials/revoke', { body: { credentials: [tokens[i]] } });
          expect(revoked.status).toBe(202);
          const answeredAt = Date.now();
          const endedAt = await streams[i].ended;
          expect({ stream: kinds[i], endedWithinMs: endedAt - answeredAt <= ENDS_WITHIN_MS }).toEqual({
            stream: kinds[i],
            endedWithinMs: true,
          });
          // The streams of the other tokens are still open.
          expect(streams.slice(i + 1).map((s) => s.isEnded())).toEqual(kinds.slice(i + 1).map(() => false));
        }
        expect(streams[0].text()).toContain('data: ');
        expect(streams[0].text()).toContain(': ended: the token was revoked or your access to this namespace changed');
      } finally {
        streams.forEach((s) => s.abort());
        await cancelJob(t, (await makeToken(t, user.name)).token, user.name, job);
      }
    }, 60_000);

    it("removing a member (through another replica) ends every stream of his on the organization's jobs", async () => {
      const admin = await makeUser(t, 'write', 'stream-admin');
      const member = await makeUser(t, 'write', 'stream-member');
      const org = await makeOrg(t, 'team', [admin.name], 'streams');
      await addMember(t, org.name, member.name, 'write');
      const job = await runLoopingJob(t, admin.token, org.name);
      const own = await runLoopingJob(t, member.token, member.name);
      const streams = await Promise.all(
        kinds.map((k) => openSse(`${first()}/api/jobs/${org.name}/${job}/${k}`, member.token)),
      );
      const ownStream = await openSse(`${first()}/api/jobs/${member.name}/${own}/logs`, member.token);
      try {
        await streams[0].received('data: ');
        const removed = await http(last(), 'DELETE', `/admin/organizations/${org.name}/members/${member.name}`, {
          token: t.adminToken,
        });
        expect(removed.status).toBe(204);
        const answeredAt = Date.now();
        const ended = await Promise.all(streams.map((s) => s.ended));
        expect(ended.map((at, i) => ({ stream: kinds[i], endedWithinMs: at - answeredAt <= ENDS_WITHIN_MS }))).toEqual(
          kinds.map((k) => ({ stream: k, endedWithinMs: true })),
        );
        // His stream of his own namespace does not depend on the organization.
        expect(ownStream.isEnded()).toBe(false);
        expect((await http(first(), 'GET', `/api/jobs/${org.name}/${job}`, { token: member.token })).status).toBe(404);
      } finally {
        [...streams, ownStream].forEach((s) => s.abort());
        await cancelJob(t, admin.token, org.name, job);
        await cancelJob(t, member.token, member.name, own);
      }
    }, 60_000);

    it('a role changed to no_access ends the stream too', async () => {
      const admin = await makeUser(t, 'write', 'stream-admin');
      const member = await makeUser(t, 'write', 'stream-demoted');
      const org = await makeOrg(t, 'team', [admin.name], 'streams');
      await addMember(t, org.name, member.name, 'read');
      const job = await runLoopingJob(t, admin.token, org.name);
      const stream = await openSse(`${first()}/api/jobs/${org.name}/${job}/logs`, member.token);
      try {
        await stream.received('data: ');
        const changed = await http(last(), 'PATCH', `/admin/organizations/${org.name}/members/${member.name}`, {
          token: t.adminToken,
          body: { role: 'no_access' },
        });
        expect(changed.status).toBe(200);
        const answeredAt = Date.now();
        expect((await stream.ended) - answeredAt).toBeLessThanOrEqual(ENDS_WITHIN_MS);
      } finally {
        stream.abort();
        await cancelJob(t, admin.token, org.name, job);
      }
    }, 60_000);
  });
}

/** The audit log export, read slowly, is cut when its token is revoked or its caller stops being an admin (item 5). */
export function auditExportCutOffScenarios(target: () => AuditCutOffTarget): void {
  describe('an open audit log export ends with its access (issue 22 item 5)', () => {
    /** Opens a slowly read export of an organization with about 24 MB of events: far more than the socket buffers and the gateway's two pages hold. */
    const openLargeExport = async (t: AuditCutOffTarget, admins: TestUser[]) => {
      const org = await makeOrg(
        t,
        'team',
        admins.map((a) => a.name),
        'export',
      );
      const prefix = randomBytes(4).toString('hex');
      await queryDatabase(
        t.databaseUrl,
        `INSERT INTO organizations.audit_events (id, organization_id, created_at, type, author, ip, doc)
        SELECT $2 || lpad(to_hex(i), 16, '0'), $1, timestamptz '2026-11-01' - (i || ' seconds')::interval, 'org.update_settings', 'bulk', null,
               json_build_object('_id', $2 || lpad(to_hex(i), 16, '0'), 'type', 'org.update_settings', 'message', 'bulk #' || i, 'data', repeat('x', 1000))::text
          FROM generate_series(1, 24000) AS i`,
        [org.id, prefix],
      );
      const answer = await openPaused(
        `${t.gateways[0]}/api/organizations/${org.name}/audit-log/export`,
        admins[0].token,
      );
      expect(answer.status).toBe(200);
      return { org, answer };
    };
    /** Reading again drains what the buffers held, then meets the closed connection: it ended in time and is incomplete. */
    const expectCut = async (answer: Awaited<ReturnType<typeof openPaused>>, answeredAt: number) => {
      const { endedAt, body } = await answer.readToEnd();
      expect(endedAt - answeredAt).toBeLessThanOrEqual(ENDS_WITHIN_MS);
      expect(body.length).toBeLessThan(24_000_000);
      expect(body.trimEnd().endsWith(']')).toBe(false);
    };

    it("a large export read slowly is cut (left incomplete) within 1 s of its token's revocation through another replica", async () => {
      const t = target();
      const admin = await makeUser(t, 'write', 'export-admin');
      const { answer } = await openLargeExport(t, [admin]);
      const revoked = await http(t.gateways[t.gateways.length - 1], 'POST', '/api/credentials/revoke', {
        body: { credentials: [admin.token] },
      });
      expect(revoked.status).toBe(202);
      await expectCut(answer, Date.now());
    }, 60_000);

    it('is cut within 1 s of its caller losing the admin role (through another replica)', async () => {
      const t = target();
      const admin = await makeUser(t, 'write', 'export-admin');
      const other = await makeUser(t, 'write', 'export-admin2');
      const { org, answer } = await openLargeExport(t, [admin, other]);
      const changed = await http(
        t.gateways[t.gateways.length - 1],
        'PATCH',
        `/admin/organizations/${org.name}/members/${admin.name}`,
        { token: t.adminToken, body: { role: 'write' } },
      );
      expect(changed.status).toBe(200);
      await expectCut(answer, Date.now());
    }, 60_000);
  });
}
