import { type LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

/** Raw tokens and secrets never reach the logs. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-webhook-secret"]',
  'headers.authorization',
  'headers["x-webhook-secret"]',
  'token',
  'secret',
  'credentials',
  '*.token',
  '*.secret',
  '*.credentials',
  // Query parameters hold token hashes and e-mail addresses (TypeORM's QueryFailedError).
  'parameters',
  '*.parameters',
];

/** What a database error may say in a log: never its parameters, nor pg's `detail` (it quotes key values). */
const DROPPED_ERROR_FIELDS = ['parameters', 'detail', 'where', 'driverError'];

/** pino's error serializer, minus the fields that carry users' data. */
export function serializeError(e: unknown): unknown {
  if (!(e instanceof Error)) return e;
  const out = pino.stdSerializers.err(e) as unknown as Record<string, unknown>;
  for (const f of DROPPED_ERROR_FIELDS) delete out[f];
  const driver = (e as { driverError?: { code?: unknown } }).driverError;
  if (driver && typeof driver.code === 'string') out['driverCode'] = driver.code;
  return out;
}

export function createPinoLogger(level: string, name: string): Logger {
  return pino({
    level,
    name,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError, error: serializeError },
  });
}

/** Nest's start-up chatter (one line per module and route) is debug, not info. */
const STARTUP_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestMicroservice',
  'NestApplication',
]);

/** Nest's logger interface over pino: JSON lines, the Nest context as `context`. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  private write(
    level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal',
    message: unknown,
    params: unknown[],
  ): void {
    const context = typeof params[params.length - 1] === 'string' ? (params.pop() as string) : undefined;
    if (message instanceof Error) {
      // Spreading an error would copy its own fields (a QueryFailedError's parameters) unserialized.
      this.pino[level]({ err: message, context }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      const text = typeof params[0] === 'string' ? params[0] : undefined;
      this.pino[level]({ ...(message as object), context }, text);
    } else {
      const extra = level === 'error' && typeof params[0] === 'string' ? { stack: params[0] } : {};
      this.pino[level]({ context, ...extra }, String(message));
    }
  }

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && STARTUP_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }
}
