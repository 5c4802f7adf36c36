import { headers, type NatsConnection } from 'nats';
import { HubEvents, type AuditPayload } from './generated/catalogue';
import { HubBus } from './hub-bus';
import { type EventMeta } from './consume-options';
import { type DeadLetter } from './dead-letter';
import { describeWithNats, hubStreams, TEST_NATS_URL, waitFor } from './testing/bus-test-harness';

const prefix = process.env['HUB_BUS_PREFIX'] ?? 'busclient';
const quiet = { info: () => undefined, warn: () => undefined };

function audit(type: string, organization = 'acme'): AuditPayload {
  return {
    type,
    organizationId: '6b032d7484c877aa429eadae',
    organization,
    message: `${type} happened`,
    createdAt: new Date().toISOString(),
    author: { _id: '6b032d7484c877aa429eadac', user: 'alice', type: 'user' },
  };
}

describeWithNats('HubBus against a real NATS JetStream', () => {
  let nc: NatsConnection;
  let bus: HubBus;
  const publish = async (subject: string, payload: unknown, msgId: string): Promise<void> => {
    const h = headers();
    h.set('Nats-Msg-Id', msgId);
    await nc
      .jetstream()
      .publish(`${prefix}.${subject}`, typeof payload === 'string' ? payload : JSON.stringify(payload), {
        msgID: msgId,
        headers: h,
      });
  };
  const deadLetters = async (): Promise<DeadLetter[]> => {
    const out: DeadLetter[] = [];
    const sub = await bus.consume(HubEvents.deadLetter, {
      durable: `dl-${out.length}-${Date.now()}`,
      handler: (p) => void out.push(p as DeadLetter),
    });
    await new Promise((r) => setTimeout(r, 500));
    await sub.stop();
    return out;
  };

  beforeAll(async () => {
    nc = await hubStreams(prefix);
    bus = await HubBus.connect({ url: TEST_NATS_URL, prefix, name: 'bus-client-test', logger: quiet });
  });

  afterAll(async () => {
    await bus?.close();
    await nc?.drain();
  });

  it('hands typed, validated payloads with their event id to a durable consumer, narrowed to one type', async () => {
    const got: [AuditPayload, EventMeta][] = [];
    const sub = await bus.consume(HubEvents.audit, {
      durable: 'typed',
      only: 'org.*',
      handler: (p, m) => void got.push([p, m]),
    });
    await publish('hub.audit.org.create', audit('org.create'), 'a1');
    await publish('hub.audit.repo.create', audit('repo.create'), 'a2');
    await publish('hub.audit.org.add_user', audit('org.add_user'), 'a3');
    await waitFor(() => (got.length >= 2 ? true : undefined));
    await sub.stop();
    expect(got.map(([p, m]) => [p.type, m.subject, m.eventId, m.deliveryCount])).toEqual([
      ['org.create', 'hub.audit.org.create', 'a1', 1],
      ['org.add_user', 'hub.audit.org.add_user', 'a3', 1],
    ]);
  });

  it('sends an invalid payload to the dead-letter subject, with why, and goes on with the next one', async () => {
    const got: string[] = [];
    const sub = await bus.consume(HubEvents.tokenRevoked, {
      durable: 'invalid',
      handler: (p) => void got.push(p.revokedAt),
    });
    await publish('hub.credentials.token.revoked', { tokenIds: ['not-an-id'] }, 'bad-1');
    await publish('hub.credentials.token.revoked', 'not json', 'bad-2');
    await publish(
      'hub.credentials.token.revoked',
      { tokenIds: ['6b032d7584c877aa429eadb2'], revokedAt: '2026-11-23T12:00:00.000Z' },
      'good-1',
    );
    await waitFor(() => (got.length ? true : undefined));
    await sub.stop();
    expect(got).toEqual(['2026-11-23T12:00:00.000Z']);
    const letters = (await deadLetters()).filter((l) => l.consumer === 'invalid');
    expect(letters.map((l) => [l.subject, l.msgId, l.reason, l.deliveryCount])).toEqual([
      ['hub.credentials.token.revoked', 'bad-1', 'invalid', 1],
      ['hub.credentials.token.revoked', 'bad-2', 'invalid', 1],
    ]);
    expect(letters[0].error).toMatch(/revokedAt/);
    expect(letters[0].error).toMatch(/tokenIds\/0 must match pattern/);
    expect(letters[1]).toMatchObject({ error: 'payload is not JSON', payload: 'not json' });
  });

  it('retries a failing handler with backoff, then dead-letters it after maxDeliver', async () => {
    const attempts: number[] = [];
    const sub = await bus.consume(HubEvents.membershipChanged, {
      durable: 'failing',
      maxDeliver: 3,
      backoffMs: (n) => n * 100,
      handler: (_p, m) => {
        attempts.push(Date.now());
        throw new Error(`boom ${m.deliveryCount}`);
      },
    });
    await publish(
      'hub.organizations.membership.changed',
      { organizationId: '6b032d7484c877aa429eadae', userIds: [] },
      'm1',
    );
    await waitFor(() => (attempts.length >= 3 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    await sub.stop();
    expect(attempts).toHaveLength(3);
    expect(attempts[2] - attempts[1]).toBeGreaterThanOrEqual(180);
    const letters = (await deadLetters()).filter((l) => l.consumer === 'failing');
    expect(letters.map((l) => [l.msgId, l.reason, l.error, l.deliveryCount])).toEqual([['m1', 'failed', 'boom 3', 3]]);
  });

  it('replays: a new durable starts from the oldest retained event, from a time, or from now', async () => {
    await publish('hub.jobs.job.status', jobStatus('RUNNING'), 'j1');
    await new Promise((r) => setTimeout(r, 50));
    const since = new Date();
    await publish('hub.jobs.job.status', jobStatus('COMPLETED'), 'j2');
    const collect = async (durable: string, from: 'all' | 'new' | { since: Date }): Promise<string[]> => {
      const ids: string[] = [];
      const sub = await bus.consume(HubEvents.jobStatus, {
        durable,
        from,
        handler: (_p, m) => void ids.push(m.eventId),
      });
      if (from === 'new') await publish('hub.jobs.job.status', jobStatus('ERROR'), 'j3');
      await new Promise((r) => setTimeout(r, 400));
      await sub.stop();
      return ids;
    };
    expect(await collect('from-all', 'all')).toEqual(['j1', 'j2']);
    expect(await collect('from-time', { since })).toEqual(['j2']);
    expect(await collect('from-new', 'new')).toEqual(['j3']);
  });
});

function jobStatus(stage: string): Record<string, unknown> {
  return {
    jobId: '6b0449ec7cfd14238e9fadcc',
    namespace: 'alice',
    ownerId: '6b032d7584c877aa429eadb1',
    stage,
    failureCount: 0,
    at: new Date().toISOString(),
  };
}
