import { IsInt, Min } from 'class-validator';
import { connect, type NatsConnection } from 'nats';
import { type DeadLetterMessage, event, Events, streamName, Streams, subject } from '@hub/contracts';
import { createTestDatabase, describeWithInfra, eventually, NATS_URL_FOR_TESTS, waitUntil } from '@hub/testing';
import { type EventBus, type EventMeta } from './events/event-bus';
import { InProcessEventBus } from './events/in-process-event-bus';
import { ensureStream, NatsEventBus } from './events/nats-event-bus';

const STREAM = { name: streamName('TEST_EVENTS'), subjects: [subject('test.events.>')] };

class V {
  v!: string;
}
class N {
  v!: number;
}
class Fan {
  n!: number;
}
class Strict {
  @IsInt()
  @Min(0)
  n!: number;
}
const Dedupe = event<V>('test.events.dedupe', V);
const Retry = event<N>('test.events.retry', N);
const Fanned = event<Fan>('test.events.fan', Fan);
const StrictConsumed = event<Strict>('test.events.strict', Strict);
const StrictHeard = event<Strict>('test.events.heard', Strict);
const Checked = event<Strict>('test.events.checked', Strict);
const Doomed = event<Strict>('test.events.doomed', Strict);
const Parallel = event<N>('test.events.parallel', N);
const Watermarked = event<N>('test.events.watermark', N);
const Unrelated = event<N>('test.events.unrelated', N);

/** The event contract both buses keep: dedupe by msgId, redelivery until acked, fan-out listen. */
function eventContract(name: string, setup: () => Promise<{ bus: EventBus; close: () => Promise<void> }>): void {
  describe(name, () => {
    let bus: EventBus;
    let close: () => Promise<void>;
    beforeAll(async () => ({ bus, close } = await setup()));
    afterAll(() => close());

    it('delivers a message once even when published twice with the same msgId', async () => {
      const got: string[] = [];
      const stop = await bus.consume({
        stream: STREAM.name,
        durable: 'dedupe',
        source: Dedupe,
        handler: async (p) => void got.push(p.v),
      });
      await bus.publish(Dedupe, { v: 'a' }, { msgId: 'same-id' });
      await bus.publish(Dedupe, { v: 'a' }, { msgId: 'same-id' });
      await bus.publish(Dedupe, { v: 'b' }, { msgId: 'other-id' });
      await waitUntil(() => got.length >= 2);
      await new Promise((r) => setTimeout(r, 300));
      expect(got).toEqual(['a', 'b']);
      await stop();
    });

    it('redelivers a message whose handler failed, counting deliveries', async () => {
      const seen: EventMeta[] = [];
      const stop = await bus.consume({
        stream: STREAM.name,
        durable: 'retry',
        source: Retry,
        handler: async (_p, meta) => {
          seen.push(meta);
          if (meta.deliveryCount < 2) throw new Error('not yet');
        },
      });
      await bus.publish(Retry, { v: 1 }, { msgId: 'retry-1' });
      await waitUntil(() => seen.length >= 2, 10_000);
      expect(seen.map((m) => m.deliveryCount)).toEqual([1, 2]);
      expect(seen[0]?.subject).toBe(subject('test.events.retry'));
      await stop();
    });

    it('fans a subject out to every listener', async () => {
      const a: number[] = [];
      const b: number[] = [];
      const stopA = bus.listen(Fanned, (p) => a.push(p.n));
      const stopB = bus.listen(Fanned, (p) => b.push(p.n));
      await new Promise((r) => setTimeout(r, 100));
      await bus.publish(Fanned, { n: 7 });
      await waitUntil(() => a.length === 1 && b.length === 1);
      await stopA();
      await stopB();
    });

    it('dead-letters an invalid payload with its subject and msgId, and keeps consuming', async () => {
      const dead: DeadLetterMessage[] = [];
      const stopDead = bus.listen(Events.DeadLetter, (p) => void dead.push(p));
      const got: number[] = [];
      const stop = await bus.consume({
        stream: STREAM.name,
        durable: 'strict',
        source: StrictConsumed,
        handler: async (p) => void got.push(p.n),
      });
      await new Promise((r) => setTimeout(r, 100));
      await bus.publish(StrictConsumed, { n: -1 }, { msgId: 'bad-1' });
      await bus.publish(StrictConsumed, { n: 5 }, { msgId: 'good-1' });
      await waitUntil(() => got.length === 1 && dead.length === 1);
      expect(got).toEqual([5]);
      expect(dead[0]).toMatchObject({
        subject: subject('test.events.strict'),
        msgId: 'bad-1',
        reason: 'invalid',
        consumer: 'strict',
        deliveryCount: 1,
        payload: { n: -1 },
        error: expect.stringContaining('n must not be less than 0'),
      });
      await stop();
      await stopDead();
    });

    it('trusts what its publisher in this process validated (in-process bus only), and nothing else (decision 0512)', async () => {
      const dead: DeadLetterMessage[] = [];
      const stopDead = bus.listen(Events.DeadLetter, (p) => void dead.push(p));
      const got: Strict[] = [];
      const stop = await bus.consume({
        stream: STREAM.name,
        durable: 'checked',
        source: Checked,
        handler: async (p) => void got.push(p),
      });
      await new Promise((r) => setTimeout(r, 100));
      // A payload the class refuses, said to be validated: only the in-process bus believes it
      // (its rules are not run again), so it reaching the handler shows they were skipped.
      await bus.publish(Checked, { n: -1 }, { msgId: 'said-checked', checked: [Strict] });
      // A repeat of a stored msgId with another text: the stored text was never checked.
      await bus.publish(Checked, { n: -2 }, { msgId: 'first-unchecked' });
      await bus.publish(Checked, { n: 3 }, { msgId: 'first-unchecked', checked: [Strict] });
      // Checked against another class than the consumer's: validated.
      await bus.publish(Checked, { n: -4 }, { msgId: 'other-class', checked: [N] });
      // The same through an ordered batch (the outbox relay's, for what its Outbox checked).
      await bus.publishInOrder([{ event: Checked, payload: { n: -5 }, msgId: 'batch-checked', checked: [Strict] }]);
      const inProcess = bus instanceof InProcessEventBus;
      await waitUntil(() => got.length + dead.filter((d) => d.consumer === 'checked').length === 4);
      expect(got.map((p) => p.n)).toEqual(inProcess ? [-1, -5] : []);
      if (inProcess) expect(got[0]).toBeInstanceOf(Strict);
      expect(dead.filter((d) => d.consumer === 'checked').map((d) => d.msgId)).toEqual(
        inProcess
          ? ['first-unchecked', 'other-class']
          : ['said-checked', 'first-unchecked', 'other-class', 'batch-checked'],
      );
      await stop();
      await stopDead();
    });

    it('gives a listener only valid payloads and dead-letters the rest', async () => {
      const dead: DeadLetterMessage[] = [];
      const stopDead = bus.listen(Events.DeadLetter, (p) => void dead.push(p));
      const heard: Strict[] = [];
      const stop = bus.listen(StrictHeard, (p) => void heard.push(p));
      await new Promise((r) => setTimeout(r, 100));
      await bus.publish(StrictHeard, { n: 'seven' as unknown as number }, { msgId: 'bad-heard' });
      await bus.publish(StrictHeard, { n: 7 }, { msgId: 'good-heard' });
      await waitUntil(() => heard.length === 1 && dead.length === 1);
      expect(heard[0]).toBeInstanceOf(Strict);
      expect(heard[0]?.n).toBe(7);
      expect(dead[0]).toMatchObject({
        subject: subject('test.events.heard'),
        msgId: 'bad-heard',
        reason: 'invalid',
        consumer: 'listen',
      });
      await stop();
      await stopDead();
    });

    it('hands a consumer as many messages at once as its concurrency, each acked once', async () => {
      let inFlight = 0;
      let most = 0;
      const got: number[] = [];
      let release: () => void = () => undefined;
      const gate = new Promise<void>((r) => (release = r));
      const stop = await bus.consume({
        stream: STREAM.name,
        durable: 'parallel',
        source: Parallel,
        concurrency: 4,
        handler: async (p) => {
          most = Math.max(most, ++inFlight);
          await gate;
          inFlight--;
          got.push(p.v);
        },
      });
      for (let v = 0; v < 6; v++) await bus.publish(Parallel, { v }, { msgId: `parallel-${v}` });
      await waitUntil(() => most === 4);
      release();
      await waitUntil(() => got.length >= 6);
      await new Promise((r) => setTimeout(r, 300));
      expect(most).toBe(4);
      expect([...got].sort()).toEqual([0, 1, 2, 3, 4, 5]);
      await stop();
    });

    it('says through which seq a consumer has acked everything it takes, for every replica (processedThrough)', async () => {
      const seqs: number[] = [];
      const held = new Map<number, () => void>();
      const stop = await bus.consume({
        stream: STREAM.name,
        durable: 'watermark',
        source: Watermarked,
        concurrency: 4,
        handler: (p, meta) => {
          seqs[p.v] = meta.seq ?? -1;
          return new Promise<void>((done) => held.set(p.v, done));
        },
      });
      for (let v = 0; v < 3; v++) await bus.publish(Watermarked, { v }, { msgId: `watermark-${v}` });
      await waitUntil(() => held.size === 3);
      // 0 still in the handler: nothing of it or after it counts, whatever else was acked.
      held.get(2)?.();
      held.get(1)?.();
      await new Promise((r) => setTimeout(r, 300));
      expect(await bus.processedThrough(STREAM.name, 'watermark')).toBeLessThan(seqs[0]);
      held.get(0)?.();
      const through = (): Promise<number> => bus.processedThrough(STREAM.name, 'watermark');
      expect(await eventually(through, (w) => w >= seqs[2])).toBeGreaterThanOrEqual(seqs[2]);
      // Idle, the watermark follows the stream past events the consumer does not take.
      await bus.publish(Unrelated, { v: 1 }, { msgId: 'watermark-unrelated' });
      expect(await eventually(through, (w) => w > seqs[2])).toBeGreaterThan(seqs[2]);
      await stop();
    });

    it('dead-letters a message whose handler keeps failing, after maxDeliver deliveries', async () => {
      const dead: DeadLetterMessage[] = [];
      const stopDead = bus.listen(Events.DeadLetter, (p) => void dead.push(p));
      let calls = 0;
      const stop = await bus.consume({
        stream: STREAM.name,
        durable: 'doomed',
        source: Doomed,
        maxDeliver: 2,
        handler: async () => {
          calls++;
          throw new Error('handler is broken');
        },
      });
      await bus.publish(Doomed, { n: 1 }, { msgId: 'doomed-1' });
      await waitUntil(() => dead.length === 1, 10_000);
      await new Promise((r) => setTimeout(r, 1500));
      expect(calls).toBe(2);
      expect(dead).toEqual([
        expect.objectContaining({
          subject: subject('test.events.doomed'),
          msgId: 'doomed-1',
          reason: 'failed',
          error: 'handler is broken',
          deliveryCount: 2,
          payload: { n: 1 },
        }),
      ]);
      await stop();
      await stopDead();
    });
  });
}

describeWithInfra('in-process bus on Postgres', () => {
  eventContract('in-process event bus on Postgres', async () => {
    const db = await createTestDatabase();
    const bus = await InProcessEventBus.open({ databaseUrl: db.url });
    return {
      bus,
      close: async () => {
        await bus.close();
        await db.drop();
      },
    };
  });
});

describeWithInfra('JetStream', () => {
  let nc: NatsConnection;

  it('keeps events as many days as HUB_BUS_RETENTION_DAYS says, and follows a change at the next start', async () => {
    const conn = await connect({ servers: NATS_URL_FOR_TESTS });
    const jsm = await conn.jetstreamManager();
    const spec = { name: `${STREAM.name}_RETENTION`, subjects: [subject('test.retention.>')] };
    const day = 24 * 3600 * 1e9;
    await ensureStream(jsm, spec);
    expect((await jsm.streams.info(spec.name)).config.max_age).toBe(7 * day);
    await ensureStream(jsm, spec, 30);
    expect((await jsm.streams.info(spec.name)).config.max_age).toBe(30 * day);
    await jsm.streams.delete(spec.name);
    await conn.drain();
  });

  eventContract('NATS JetStream event bus', async () => {
    nc = await connect({ servers: NATS_URL_FOR_TESTS });
    const jsm = await nc.jetstreamManager();
    await ensureStream(jsm, STREAM);
    await ensureStream(jsm, STREAM); // idempotent: a second replica starting up
    await ensureStream(jsm, Streams.DeadLetter);
    const bus = new NatsEventBus(nc, jsm);
    return {
      bus,
      close: async () => {
        await bus.close();
        await jsm.streams.delete(STREAM.name);
        await jsm.streams.delete(Streams.DeadLetter.name);
        await nc.drain();
      },
    };
  });
});
