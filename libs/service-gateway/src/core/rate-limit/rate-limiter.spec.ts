import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('allows the limit per window per key, then refuses until the window resets', () => {
    const r = new RateLimiter(2, 60_000);
    expect(r.hit('a', 1000).allowed).toBe(true);
    expect(r.hit('a', 2000).remaining).toBe(0);
    const third = r.hit('a', 3000);
    expect(third.allowed).toBe(false);
    expect(third.resetSeconds).toBe(57);
    expect(r.hit('b', 3000).allowed).toBe(true);
    expect(r.hit('a', 60_000).allowed).toBe(true);
  });
});
