import { HeldHeadLook } from './held-head-look';

describe('HeldHeadLook (decision 0511)', () => {
  it('looks again 25 ms after a held head, doubling while the watermark stands, never past the poll', () => {
    const look = new HeldHeadLook(250);
    look.queued(10);
    expect([look.after(5), look.after(5), look.after(5), look.after(5), look.after(5)]).toEqual([
      25, 50, 100, 200, 250,
    ]);
    expect(look.after(6)).toBe(25);
  });

  it('answers null once the intake caught up, and starts at 25 ms again after that', () => {
    const look = new HeldHeadLook(250);
    look.queued(10);
    expect(look.after(5)).toBe(25);
    expect(look.after(9)).toBeNull();
    look.queued(20);
    expect(look.after(9)).toBe(25);
  });
});
