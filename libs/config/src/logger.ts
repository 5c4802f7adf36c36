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
];

export function createPinoLogger(level: string, name: string): Logger {
  return pino({ level, name, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}

/** Nest's start-up chatter (one line per module and route) is debug, not info. */
const STARTUP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestMicroservice', 'NestApplication']);

/** Nest's logger interface over pino: JSON lines, the Nest context as `context`. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, params: unknown[]): void {
    const context = typeof params[params.length - 1] === 'string' ? (params.pop() as string) : undefined;
    if (typeof message === 'object' && message !== null) {
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
