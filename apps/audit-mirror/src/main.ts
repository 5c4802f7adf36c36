import { HubBus, HubEvents, idempotent } from '@hub/bus-client';
import { JsonlMirror } from './jsonl-mirror';
import { mirrorConfig } from './mirror-config';

/**
 * An example subscriber: mirrors the hub's audit events (`hub.audit.<type>`) to a JSON-lines
 * file, one line per event, each once, with a durable consumer that resumes where it stopped.
 */
async function main(): Promise<void> {
  const config = mirrorConfig(process.env);
  const bus = await HubBus.connect({
    url: config.natsUrl,
    user: config.natsUser,
    password: config.natsPassword,
    prefix: config.prefix,
    name: 'audit-mirror',
  });
  const mirror = new JsonlMirror(config.file);
  await bus.consume(HubEvents.audit, {
    durable: config.durable,
    from: config.from,
    handler: idempotent(mirror, (event, meta) => {
      if (config.organization && event.organization !== config.organization) return;
      mirror.append(event, meta);
      console.log(`mirrored ${meta.subject} ${meta.eventId}`);
    }),
  });
  console.log(
    `audit-mirror: ${bus.names.subject('hub.audit.>')} -> ${config.file} (durable ${bus.names.stream(config.durable)})`,
  );
  const stop = (): void => {
    bus.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
