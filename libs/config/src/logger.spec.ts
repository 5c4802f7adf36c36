import { Writable } from 'node:stream';
import pino from 'pino';
import { QueryFailedError } from 'typeorm';
import { PinoNestLogger, REDACT_PATHS, serializeError } from './logger';

function capture(): { logger: PinoNestLogger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _e, cb) => (lines.push(chunk.toString()), cb()) });
  const p = pino(
    {
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: serializeError, error: serializeError },
    },
    sink,
  );
  return { logger: new PinoNestLogger(p), lines };
}

describe('logs of database errors', () => {
  const failed = (): QueryFailedError => {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint "users_email"'), {
      code: '23505',
      detail: 'Key (email)=(alice@example.com) already exists.',
    });
    return new QueryFailedError(
      'INSERT INTO users (email, token_hash) VALUES ($1, $2)',
      ['alice@example.com', 'a'.repeat(64)],
      driverError,
    );
  };

  it('never carry query parameters or the driver detail, under err or as the message', () => {
    const { logger, lines } = capture();
    logger.error({ err: failed(), errorId: 'x' }, 'Unhandled error x');
    logger.error(failed());
    const text = lines.join('\n');
    expect(lines).toHaveLength(2);
    expect(text).not.toContain('alice@example.com');
    expect(text).not.toContain('a'.repeat(64));
    expect(text).toContain('INSERT INTO users');
    expect(text).toContain('"driverCode":"23505"');
  });
});
