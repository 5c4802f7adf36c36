import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  it('seals to v1.<base64> without the plaintext, opens back, and a fresh IV each time', () => {
    const box = new SecretBox('a-key-of-sixteen-or-more', 'hub-job-secrets');
    const a = box.seal('hf_secret');
    expect(a).toMatch(/^v1\.[A-Za-z0-9+/=]+$/);
    expect(a).not.toContain('hf_secret');
    expect(box.seal('hf_secret')).not.toBe(a);
    expect(box.open(a)).toBe('hf_secret');
    expect(box.openMap(box.sealMap({ A: 'x', B: '' }))).toEqual({ A: 'x', B: '' });
  });

  it('a box with another purpose or key cannot open it (GCM tag check)', () => {
    const sealed = new SecretBox('a-key-of-sixteen-or-more', 'hub-job-secrets').seal('v');
    expect(() => new SecretBox('a-key-of-sixteen-or-more', 'hub-webhook-secrets').open(sealed)).toThrow();
    expect(() => new SecretBox('another-key-of-16-chars', 'hub-job-secrets').open(sealed)).toThrow();
  });
});
