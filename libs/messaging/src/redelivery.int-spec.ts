import { spawn } from 'node:child_process';
import { connect, type NatsConnection } from 'nats';
import { eventFamily, streamName, subject } from '@hub/contracts';
import { describeWithInfra, NATS_URL_FOR_TESTS } from '@hub/testing';
import { type EventMeta } from './events/event-bus';
import { ensureStream, NatsEventBus } from './events/nats-event-bus';

const STREAM = { name: streamName('TEST_KILL'), subjects: [subject('test.kill.>')] };
const DURABLE = 'kill-test';
class N {
  n!: number;
}
const Kill = eventFamily<N>('test.kill', N);

/**
 * A consumer process that takes a message and never acks it (it is "mid-handling"), so the
 * test can kill -9 it there. Plain nats.js: the durable consumer it binds to was created by our
 * EventBus with explicit ack and a short ack wait.
 */
const CHILD = `
const { connect } = require('nats');
(async () => {
  const nc = await connect({ servers: process.env.NATS_URL });
  const c = await nc.jetstream().consumers.get(process.env.STREAM, process.env.DURABLE);
  const msgs = await c.consume();
  for await (const m of msgs) { console.log('GOT ' + m.string()); }
})();
`;

describeWithInfra('JetStream durable consumer survives kill -9', () => {
  let nc: NatsConnection;

  afterAll(async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(STREAM.name).catch(() => undefined);
    await nc.drain();
  });

  it('redelivers a message whose consumer was killed before acking', async () => {
    nc = await connect({ servers: NATS_URL_FOR_TESTS });
    const jsm = await nc.jetstreamManager();
    await ensureStream(jsm, STREAM);
    const bus = new NatsEventBus(nc, jsm);
    // Create the durable consumer (explicit ack, 1 s ack wait), then step aside for the child.
    const stopFirst = await bus.consume({
      stream: STREAM.name,
      durable: DURABLE,
      source: Kill,
      ackWaitMs: 1000,
      handler: async () => {
        throw new Error('the test publishes only after this consumer stopped');
      },
    });
    await stopFirst();

    const child = spawn(process.execPath, ['-e', CHILD], {
      env: { ...process.env, NATS_URL: NATS_URL_FOR_TESTS, STREAM: STREAM.name, DURABLE },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((r) => setTimeout(r, 500));
    await bus.publish(Kill.of('one'), { n: 1 }, { msgId: 'kill-1' });
    const deadline = Date.now() + 5000;
    while (!out.includes('GOT') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(out).toContain('GOT {"n":1}');
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const seen: EventMeta[] = [];
    const stop = await bus.consume({
      stream: STREAM.name,
      durable: DURABLE,
      source: Kill,
      ackWaitMs: 1000,
      handler: async (_p, meta) => void seen.push(meta),
    });
    const until = Date.now() + 10_000;
    while (seen.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await stop();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ subject: subject('test.kill.one'), deliveryCount: 2, msgId: 'kill-1' });
  });
});
