import { EventEmitter } from 'node:events';
import { type FastifyReply } from 'fastify';
import { requestStream, requestTimer } from './request-scope';

/** A reply whose response can be ended by emitting 'close' on its raw response. */
function fakeReply(): { reply: FastifyReply; end: () => void } {
  const raw = Object.assign(new EventEmitter(), { writableEnded: false, destroyed: false });
  return { reply: { raw } as unknown as FastifyReply, end: () => raw.emit('close') };
}

describe('request scope', () => {
  it('a request stream takes an error nobody else listens for, and is destroyed when the response ends', async () => {
    const { reply, end } = fakeReply();
    const stream = requestStream(reply);
    stream.destroy(new Error('after the answer'));
    // Emitted on the next tick: without the stream's own listener this would be an uncaught error.
    await new Promise((r) => setImmediate(r));
    const other = requestStream(reply);
    end();
    expect(other.destroyed).toBe(true);
  });

  it('a request timer is cleared when the response ends', () => {
    jest.useFakeTimers();
    try {
      const { reply, end } = fakeReply();
      const fired = jest.fn();
      requestTimer(reply, 1000, fired);
      end();
      jest.advanceTimersByTime(5000);
      expect(fired).not.toHaveBeenCalled();
      const kept = fakeReply();
      requestTimer(kept.reply, 1000, fired);
      jest.advanceTimersByTime(1000);
      expect(fired).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });
});
