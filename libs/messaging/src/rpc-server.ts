import { type INestApplication } from '@nestjs/common';
import { Transport } from '@nestjs/microservices';
import { queueGroup } from '@hub/contracts';
import { type BusMode } from './bus-mode';
import { InProcessBroker } from './in-process/in-process-broker';
import { InProcessServer } from './in-process/in-process.server';

/**
 * Serves the app's @MessagePattern handlers over the bus: NATS with a queue group per service
 * (replicas share the load), or in-process for the all-in-one mode. Call before app.init/listen.
 */
export function connectRpcServer(app: INestApplication, mode: BusMode, service: string): void {
  if (mode.kind === 'nats') {
    app.connectMicroservice(
      { transport: Transport.NATS, options: { servers: mode.url.split(','), queue: queueGroup(service), name: service } },
      { inheritAppConfig: false },
    );
  } else {
    app.connectMicroservice({ strategy: new InProcessServer(mode.broker) }, { inheritAppConfig: false });
  }
}

/** The bus mode that config describes: NATS when NATS_URL is set. */
export function busModeFrom(natsUrl: string | undefined, broker = new InProcessBroker()): BusMode {
  return natsUrl ? { kind: 'nats', url: natsUrl } : { kind: 'in-process', broker };
}
