import { ConfigError, loadConfig } from '@hub/config';
import { GatewayConfig } from './gateway.config';

describe('GatewayConfig', () => {
  it('has the hardening defaults and reads trusted proxies as a list', () => {
    const c = loadConfig(GatewayConfig, { HUB_TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.7,::1' });
    expect(c.trustedProxies).toEqual(['10.0.0.0/8', '192.168.1.7', '::1']);
    expect([c.HUB_AUTH_FAILURE_LIMIT_PER_MINUTE, c.HUB_BODY_TIMEOUT_MS, c.HUB_MAX_CONNECTIONS]).toEqual([
      30, 10_000, 10_000,
    ]);
    expect(loadConfig(GatewayConfig, {}).trustedProxies).toEqual([]);
  });

  it('refuses a trusted-proxy list that is not addresses or ranges', () => {
    expect(() => loadConfig(GatewayConfig, { HUB_TRUSTED_PROXIES: 'ingress.local' })).toThrow(ConfigError);
    expect(() => loadConfig(GatewayConfig, { HUB_TRUSTED_PROXIES: 'ingress.local' })).toThrow(
      /HUB_TRUSTED_PROXIES must be/,
    );
  });

  it("links to the public hub's website by default, keeps an empty value as 'no links', and trims a trailing slash", () => {
    expect(loadConfig(GatewayConfig, {}).websiteUrl).toBe('https://huggingface.co');
    expect(loadConfig(GatewayConfig, { HUB_WEBSITE_URL: '' }).websiteUrl).toBeNull();
    expect(loadConfig(GatewayConfig, { HUB_WEBSITE_URL: 'http://localhost:3000/hub/' }).websiteUrl).toBe(
      'http://localhost:3000/hub',
    );
    // Other variables keep the rule that empty is unset.
    expect(loadConfig(GatewayConfig, { HUB_JOBS_DOMAIN: '' }).HUB_JOBS_DOMAIN).toBe('jobs.localhost');
  });

  it('refuses a website address that is not http(s), naming the variable', () => {
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,hi',
      'ftp://hub.example',
      'hub.example',
      'https://hub.example/?a=1',
    ])
      expect(() => loadConfig(GatewayConfig, { HUB_WEBSITE_URL: bad })).toThrow(
        /HUB_WEBSITE_URL: HUB_WEBSITE_URL must be/,
      );
  });
});
