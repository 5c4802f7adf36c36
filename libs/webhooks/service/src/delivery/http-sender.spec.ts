import { parseNetworks } from '@hub/config';
import { postJson } from './http-sender';

/** The SSRF guard (libs/config) as the webhook sender applies it: nothing reaches a blocked address. */
describe('postJson and the SSRF guard', () => {
  const none = parseNetworks(undefined);
  const testAllowed = parseNetworks('127.0.0.1/32');

  it('refuses a host name that resolves to loopback, at connect time, before any byte is sent', async () => {
    const r = await postJson('http://localhost:9/x', '{}', {}, 1000, none);
    expect(r).toMatchObject({ status: null, error: expect.stringMatching(/localhost resolves to .*blocked address/) });
  });

  it('refuses IP literals in URLs, IPv6 in brackets too', async () => {
    for (const url of [
      'http://10.0.0.1/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:9/x',
      'http://127.0.0.2:9/x',
    ]) {
      expect(await postJson(url, '{}', {}, 1000, testAllowed)).toMatchObject({
        status: null,
        error: expect.stringMatching(/blocked address/),
      });
    }
  });
});
