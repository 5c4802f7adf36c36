import { createHash } from 'node:crypto';
import { tokenHash } from './token-hash';

describe('tokenHash', () => {
  it('is the hex SHA-256 of the UTF-8 token, the same for the same token', () => {
    expect(tokenHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(tokenHash('hf_é')).toBe(createHash('sha256').update('hf_é', 'utf8').digest('hex'));
    expect(tokenHash('hf_abc')).not.toBe(tokenHash('hf_abd'));
  });
});
