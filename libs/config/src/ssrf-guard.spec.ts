import { BlockedAddressError, embeddedIpv4, guardedLookup, isBlockedAddress, parseNetworks } from './ssrf-guard';

/** The guard's decisions, without connecting anywhere (architecture section 7). */
describe('SSRF guard', () => {
  const none = parseNetworks(undefined);
  const testAllowed = parseNetworks('127.0.0.1/32');

  it.each([
    '10.0.0.1',
    '169.254.169.254',
    '::1',
    '127.0.0.2',
    '127.0.0.1',
    '192.168.1.1',
    '172.16.0.1',
    '100.64.0.1',
    'fd00::1',
    'fe80::1',
    '0.0.0.0',
    '::ffff:127.0.0.1',
    '::ffff:7f00:2',
  ])('refuses %s by default', (address) => expect(isBlockedAddress(address, none)).toBe(true));

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111'])('lets public %s through', (address) =>
    expect(isBlockedAddress(address, none)).toBe(false),
  );

  it('lets only the allowed networks through: 127.0.0.1/32 allows 127.0.0.1, not 127.0.0.2 or ::1', () => {
    expect(isBlockedAddress('127.0.0.1', testAllowed)).toBe(false);
    expect(isBlockedAddress('127.0.0.2', testAllowed)).toBe(true);
    expect(isBlockedAddress('::1', testAllowed)).toBe(true);
  });

  it('refuses a host name that resolves to loopback, at lookup time (before any connection)', async () => {
    const err = await new Promise<Error | null>((resolve) =>
      guardedLookup(none)('localhost', {}, (e) => resolve(e as Error | null)),
    );
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect(err?.message).toMatch(/localhost resolves to .*blocked address/);
    const ok = await new Promise<string>((resolve) =>
      guardedLookup(parseNetworks('127.0.0.1/32,::1/128'))('localhost', {}, (_e, address) => resolve(String(address))),
    );
    expect(['127.0.0.1', '::1']).toContain(ok);
  });

  describe('IPv6 transition forms: the IPv4 they lead to is judged (issue 22)', () => {
    it.each([
      ['::127.0.0.1', 'IPv4-compatible'],
      ['::7f00:1', 'IPv4-compatible, hex'],
      ['::10.0.0.1', 'IPv4-compatible, private'],
      ['::ffff:0:127.0.0.2', 'SIIT'],
      ['::ffff:0:a9fe:a9fe', 'SIIT, metadata'],
      ['64:ff9b::127.0.0.1', 'NAT64'],
      ['64:ff9b::a9fe:a9fe', 'NAT64, metadata'],
      ['64:ff9b:1::8.8.8.8', 'local-use NAT64, even to a public address'],
      ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
      ['2002:c0a8:101::', '6to4 of 192.168.1.1'],
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo, client 127.0.0.1'],
      ['2001:0:a00:1::f7f7:f7f7', 'Teredo, server 10.0.0.1'],
      ['fec0::1', 'site-local'],
      ['fec0::127.0.0.1', 'site-local with a dotted tail'],
    ])('refuses %s (%s), even with 127.0.0.1/32 allowed', (address) => {
      expect(isBlockedAddress(address, none)).toBe(true);
      expect(isBlockedAddress(address, testAllowed)).toBe(true);
    });

    it.each([
      '::8.8.8.8',
      '::ffff:0:8.8.8.8',
      '64:ff9b::8.8.8.8',
      '2002:808:808::1',
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
    ])('lets %s through: it leads to a public address', (address) =>
      expect(isBlockedAddress(address, none)).toBe(false),
    );

    it('decodes each form', () => {
      expect(embeddedIpv4('::7f00:1')).toEqual(['127.0.0.1']);
      expect(embeddedIpv4('::ffff:0:127.0.0.2')).toEqual(['127.0.0.2']);
      expect(embeddedIpv4('64:ff9b::a9fe:a9fe')).toEqual(['169.254.169.254']);
      expect(embeddedIpv4('2002:c0a8:101:5::1')).toEqual(['192.168.1.1']);
      expect(embeddedIpv4('2001:0:4136:e378:8000:63bf:80ff:fffe')).toEqual(['65.54.227.120', '127.0.0.1']);
      expect(embeddedIpv4('2606:4700::1111')).toBeNull();
    });

    it('judges IPv4-mapped addresses as the IPv4 address itself, the allowed networks included', () => {
      expect(isBlockedAddress('::ffff:127.0.0.1', testAllowed)).toBe(false);
      expect(isBlockedAddress('::ffff:7f00:1', testAllowed)).toBe(false);
      expect(isBlockedAddress('::ffff:7f00:2', testAllowed)).toBe(true);
    });

    it('lets a transition address through when an IPv6 entry of the allowed networks covers it', () => {
      expect(isBlockedAddress('64:ff9b::7f00:1', parseNetworks('64:ff9b::/96'))).toBe(false);
    });
  });

  it('rejects a malformed allowed-networks entry, naming the setting', () => {
    expect(() => parseNetworks('not-an-ip/8')).toThrow(/HUB_WEBHOOK_ALLOWED_NETWORKS/);
    expect(() => parseNetworks('not-an-ip/8', 'HUB_AUDIT_STREAM_ALLOWED_NETWORKS')).toThrow(
      /HUB_AUDIT_STREAM_ALLOWED_NETWORKS/,
    );
  });
});
