import { type AuthInfo } from '@hub/credentials-contract';
import { TokenCache } from './token-cache';

const info = (tokenId: string): AuthInfo => ({
  user: { id: 'u', name: 'n', fullname: 'f', email: 'e', avatarUrl: 'a', isPro: false, createdAt: 'c' },
  token: { id: tokenId, userId: 'u', displayName: 'd', role: 'read', last4: 'abcd', createdAt: 'c', lastUsedAt: null },
  revokedOrganizationIds: [],
});

describe('TokenCache', () => {
  it('forgets entries after the TTL', () => {
    const c = new TokenCache(1000, 10);
    c.set('h', info('t1'), 0);
    expect(c.get('h', 999)?.token.id).toBe('t1');
    expect(c.get('h', 1000)).toBeUndefined();
  });

  it('drops every entry of a revoked token id', () => {
    const c = new TokenCache(1000, 10);
    c.set('h1', info('t1'));
    c.set('h2', info('t2'));
    c.deleteTokenIds(['t1']);
    expect(c.get('h1')).toBeUndefined();
    expect(c.get('h2')).toBeDefined();
  });

  it('evicts the oldest entry when full', () => {
    const c = new TokenCache(1000, 2);
    c.set('a', info('1'));
    c.set('b', info('2'));
    c.set('c', info('3'));
    expect(c.size).toBe(2);
    expect(c.get('a')).toBeUndefined();
    expect(c.get('c')).toBeDefined();
  });
});

describe('TokenCache and a verification racing a revocation', () => {
  it('does not keep a reply fetched before an eviction that ran while it was in flight', () => {
    const c = new TokenCache(1000, 10);
    const before = c.generation;
    c.deleteTokenIds(['t1']); // the revocation event arrives while the verification is in flight
    c.setUnlessEvicted('h1', info('t1'), before);
    expect(c.get('h1')).toBeUndefined();
    c.setUnlessEvicted('h1', info('t1'), c.generation);
    expect(c.get('h1')).toBeDefined();
  });
});
