import { idempotent, MemoryIdempotencyStore } from './idempotency';
import { type EventMeta } from './consume-options';

const meta = (eventId: string): EventMeta => ({
  subject: 'hub.audit.org.create',
  eventId,
  deliveryCount: 1,
  streamSequence: 1,
  publishedAt: new Date(),
});

describe('idempotent', () => {
  it('runs the handler once per event id, and again after a failure', async () => {
    const ran: string[] = [];
    let fail = true;
    const handler = idempotent(new MemoryIdempotencyStore(), async (_p: unknown, m) => {
      ran.push(m.eventId);
      if (m.eventId === 'b' && fail) {
        fail = false;
        throw new Error('once');
      }
    });
    await handler({}, meta('a'));
    await handler({}, meta('a'));
    await expect(handler({}, meta('b'))).rejects.toThrow('once');
    await handler({}, meta('b'));
    await handler({}, meta('b'));
    expect(ran).toEqual(['a', 'b', 'b']);
  });

  it('forgets the oldest ids past its bound', () => {
    const store = new MemoryIdempotencyStore(2);
    ['a', 'b', 'c'].forEach((id) => store.add(id));
    expect([store.has('a'), store.has('b'), store.has('c')]).toEqual([false, true, true]);
  });
});
