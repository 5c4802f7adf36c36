import { Socket } from 'node:net';

export const NATS_URL_FOR_TESTS = process.env['HUB_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
export const ADMIN_DATABASE_URL = process.env['HUB_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
// The global setup probes the server the tests will use.
export const PG_HOST = new URL(ADMIN_DATABASE_URL).hostname || '127.0.0.1';
export const PG_PORT = Number(new URL(ADMIN_DATABASE_URL).port || 5432);

export function portOpen(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const s = new Socket();
    const done = (ok: boolean): void => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('error', () => done(false));
    s.connect(port, host, () => done(true));
  });
}

/**
 * The unit tier (`npm run test:unit`, jest.unit.config.ts) runs only `*.spec.ts`, which must need
 * no Postgres, NATS, built app or browser.
 */
export function unitTier(): boolean {
  return process.env['HUB_TEST_TIER'] === 'unit';
}

/** Set by the jest global setup: '1' when Postgres and NATS answer. */
export function infraAvailable(): boolean {
  return process.env['HUB_TEST_INFRA'] === '1';
}
