import { connect, type NatsConnection, nanos, RetentionPolicy, StorageType } from 'nats';
import { BusNames } from '../bus-names';

/** The NATS the workspace's tests use (the global setup probes it and sets HUB_TEST_INFRA). */
export const TEST_NATS_URL = process.env['HUB_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
export const describeWithNats: jest.Describe = process.env['HUB_TEST_INFRA'] === '1' ? describe : describe.skip;

/** Creates the hub's streams for this test file's prefix, as every hub app does at start. */
export async function hubStreams(prefix: string): Promise<NatsConnection> {
  const names = new BusNames(prefix);
  const nc = await connect({ servers: TEST_NATS_URL });
  const jsm = await nc.jetstreamManager();
  for (const area of ['events', 'audit', 'credentials', 'organizations', 'webhooks', 'deadletter', 'jobs']) {
    await jsm.streams.add({
      name: names.stream(`HUB_${area.toUpperCase()}`),
      subjects: [names.subject(`hub.${area}.>`)],
      retention: RetentionPolicy.Limits,
      storage: StorageType.Memory,
      max_age: nanos(3600_000),
      duplicate_window: nanos(120_000),
    });
  }
  return nc;
}

export async function waitFor<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
