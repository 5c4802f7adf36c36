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
});
