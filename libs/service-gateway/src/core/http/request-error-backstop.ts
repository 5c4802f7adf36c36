import { Logger } from '@nestjs/common';
import { EdgeError } from './json-body';

type Exit = (code: number) => void;

const logger = new Logger('RequestErrorBackstop');

/**
 * What the process does with an exception nothing caught. An EdgeError is raised by the edge
 * for one request only (a body timeout, a refused body): if one escapes (an 'error' event that
 * lost its listener, as in issue 22), that request is lost, not the process, so it is logged and
 * the process goes on. Anything else may have left shared state broken: logged, and the process
 * exits with 1 as Node would, for the supervisor to restart it.
 */
export function handleUncaught(error: unknown, exit: Exit = (code) => process.exit(code)): void {
  if (error instanceof EdgeError) {
    logger.error({ err: error, code: error.code }, 'A request-scoped error escaped its request; the process goes on');
    return;
  }
  logger.fatal({ err: error }, 'Uncaught exception; exiting');
  // The log may not be written on every setup: the stack goes to stderr as Node would print it.
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exit(1);
}

/** For the app's main only: a test runner keeps its own handling of uncaught errors. */
export function installRequestErrorBackstop(): void {
  process.on('uncaughtException', (error) => handleUncaught(error));
}
