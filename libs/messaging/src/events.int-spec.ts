import { connect, type NatsConnection } from 'nats';
import { event, streamName, subject } from '@hub/contracts';
import { describeWithInfra, NATS_URL_FOR_TESTS } from '@hub/testing';
import { type EventBus, type EventMeta } from './events/event-bus';
import { InProcessEventBus } from './events/in-process-event-bus';
import { ensureStream, NatsEventBus } from './events/nats-event-bus';

const STREAM = { name: streamName('TEST_EVENTS'), subjects: [subject('test.events.>')] };

class V { v!: string; }
class N { v!: number; }
class Fan { n!: number; }
const Dedupe = event<V>('test.events.dedupe', V);
const Retry = event<N>('test.events.retry', N);
const Fanned = event<Fan>('test.events.fan', Fan);

function waitUntil(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (cond()) return resolve();
      if (Date.now() > deadline) return reject(new Error('condition not met in time'));
      setTimeout(tick, 20);
    };
    tick();
  });
}

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
        stream: STREAM.name, durable: 'dedupe', source: Dedupe,
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
        stream: STREAM.name, durable: 'retry', source: Retry,
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
  });
}

eventContract('in-process event bus', async () => {
  const bus = new InProcessEventBus();
  return { bus, close: () => bus.close() };
});

describeWithInfra('JetStream', () => {
  let nc: NatsConnection;

  eventContract('NATS JetStream event bus', async () => {
    nc = await connect({ servers: NATS_URL_FOR_TESTS });
    const jsm = await nc.jetstreamManager();
    await ensureStream(jsm, STREAM);
    await ensureStream(jsm, STREAM); // idempotent: a second replica starting up
    const bus = new NatsEventBus(nc, jsm);
    return {
      bus,
      close: async () => {
        await bus.close();
        await jsm.streams.delete(STREAM.name);
        await nc.drain();
      },
    };
  });
});
