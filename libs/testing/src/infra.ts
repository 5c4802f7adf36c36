import { Socket } from 'node:net';

export const PG_HOST = '127.0.0.1';
export const PG_PORT = 5432;
export const NATS_URL_FOR_TESTS = process.env['HUB_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
export const ADMIN_DATABASE_URL = process.env['HUB_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

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

/** Set by the jest global setup: '1' when Postgres and NATS answer. */
export function infraAvailable(): boolean {
  return process.env['HUB_TEST_INFRA'] === '1';
}

