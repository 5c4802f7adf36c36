import { isBlockedAddress, parseNetworks } from './ssrf-guard';
import { postJson } from './http-sender';

/** The guard's decisions, without connecting anywhere (architecture section 7). */
describe('SSRF guard', () => {
  const none = parseNetworks(undefined);
  const testAllowed = parseNetworks('127.0.0.1/32');

  it.each(['10.0.0.1', '169.254.169.254', '::1', '127.0.0.2', '127.0.0.1', '192.168.1.1', '172.16.0.1', '100.64.0.1', 'fd00::1', 'fe80::1', '0.0.0.0', '::ffff:127.0.0.1', '::ffff:7f00:2'])(
    'refuses %s by default',
    (address) => expect(isBlockedAddress(address, none)).toBe(true),
  );

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111'])('lets public %s through', (address) => expect(isBlockedAddress(address, none)).toBe(false));

  it('lets only the allowed networks through: 127.0.0.1/32 allows 127.0.0.1, not 127.0.0.2 or ::1', () => {
    expect(isBlockedAddress('127.0.0.1', testAllowed)).toBe(false);
    expect(isBlockedAddress('127.0.0.2', testAllowed)).toBe(true);
    expect(isBlockedAddress('::1', testAllowed)).toBe(true);
  });

  it('refuses a host name that resolves to loopback, at connect time, before any byte is sent', async () => {
    const r = await postJson('http://localhost:9/x', '{}', {}, 1000, none);
    expect(r).toMatchObject({ status: null, error: expect.stringMatching(/localhost resolves to .*blocked address/) });
  });

  it('refuses IP literals in URLs, IPv6 in brackets too', async () => {
    for (const url of ['http://10.0.0.1/x', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:9/x', 'http://127.0.0.2:9/x']) {
      expect(await postJson(url, '{}', {}, 1000, testAllowed)).toMatchObject({ status: null, error: expect.stringMatching(/blocked address/) });
    }
  });

  it('rejects a malformed allowed-networks entry', () => {
    expect(() => parseNetworks('not-an-ip/8')).toThrow(/HUB_WEBHOOK_ALLOWED_NETWORKS/);
  });
});
