import { busModeFrom } from './bus-mode';

describe('busModeFrom (decision 0013)', () => {
  const url = 'nats://nats:4222';

  it('refuses NATS without credentials in production, naming the variables', () => {
    expect(() => busModeFrom({ NATS_URL: url, NODE_ENV: 'production' })).toThrow(
      /^NATS_USER and NATS_PASSWORD are required with NATS_URL in production/,
    );
    expect(() => busModeFrom({ NATS_URL: url, NATS_USER: 'gateway', NODE_ENV: 'production' })).toThrow(
      /^NATS_PASSWORD is required/,
    );
  });

  it('refuses half the credentials anywhere, and lets development connect without any', () => {
    expect(() => busModeFrom({ NATS_URL: url, NATS_PASSWORD: 'x' })).toThrow(/^NATS_USER is required/);
    expect(busModeFrom({ NATS_URL: url })).toEqual({ kind: 'nats', url, credentials: undefined });
  });

  it('connects as the configured user, and keeps the in-process bus without NATS_URL', () => {
    expect(busModeFrom({ NATS_URL: url, NATS_USER: 'gateway', NATS_PASSWORD: 'pw', NODE_ENV: 'production' })).toEqual({
      kind: 'nats',
      url,
      credentials: { user: 'gateway', password: 'pw' },
    });
    expect(busModeFrom({ NODE_ENV: 'production' }).kind).toBe('in-process');
  });
});
