import { generateToken } from './tokens';

describe('tokens', () => {
  it('are hf_ plus 34 base62 characters, never repeating', () => {
    const tokens = Array.from({ length: 500 }, generateToken);
    for (const t of tokens) expect(t).toMatch(/^hf_[A-Za-z0-9]{34}$/);
    expect(new Set(tokens).size).toBe(500);
  });
});
