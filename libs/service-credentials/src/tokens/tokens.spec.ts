import { generateToken, hashToken } from './tokens';

describe('tokens', () => {
  it('are hf_ plus 34 base62 characters, never repeating', () => {
    const tokens = Array.from({ length: 500 }, generateToken);
    for (const t of tokens) expect(t).toMatch(/^hf_[A-Za-z0-9]{34}$/);
    expect(new Set(tokens).size).toBe(500);
  });

  it('hash to 64 hex characters, the same for the same token', () => {
    expect(hashToken('hf_abc')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken('hf_abc')).toBe(hashToken('hf_abc'));
    expect(hashToken('hf_abc')).not.toBe(hashToken('hf_abd'));
  });
});
