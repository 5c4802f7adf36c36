import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { type InProcessBroker, type InProcessEndpoint } from './in-process-broker';

/**
 * Nest transport strategy for the all-in-one mode: message handlers are called directly, with
 * the same pipes, filters and wire copy (JSON round trip) as over NATS, so services are written
 * once and run over either.
 */
export class InProcessServer extends Server implements CustomTransportStrategy, InProcessEndpoint {
  constructor(private readonly broker: InProcessBroker) {
    super();
  }

  listen(callback: () => void): void {
    this.broker.attach(this);
    callback();
  }

  close(): void {
    this.broker.detach(this);
  }

  on(): void {
    // No transport events to listen to in-process.
  }

  unwrap<T>(): T {
    throw new Error('The in-process transport has no underlying client');
  }

  dispatch(pattern: string, message: unknown): Promise<unknown> | undefined {
    const handler = this.getHandlerByPattern(pattern);
    if (!handler) return undefined;
    const copy: unknown = JSON.parse(JSON.stringify(message));
    return (async () => {
      const result$ = this.transformToObservable(await handler(copy));
      const result = await lastValueFrom(result$, { defaultValue: undefined });
      return result === undefined ? undefined : (JSON.parse(JSON.stringify(result)) as unknown);
    })();
  }
}
