/**
 * A child process of durable-in-process.int-spec.ts (run with @swc-node/register): the real
 * in-process bus with its store in the database DATABASE_URL names, with one durable consumer.
 *   hold: consume with a handler that never finishes (killed "mid-handling"), publish two events
 *   take: consume and acknowledge whatever is pending
 */
import 'reflect-metadata';
import { IsString } from 'class-validator';
import { event } from '@hub/contracts';
import { InProcessEventBus } from '../events/in-process-event-bus';

class Note {
  @IsString()
  text!: string;
}
const Noted = event<Note>('test.crash.noted', Note);

async function main(mode: string, databaseUrl: string): Promise<void> {
  const bus = await InProcessEventBus.open({ databaseUrl });
  await bus.consume({
    stream: 'TEST_CRASH',
    durable: 'crash-test',
    source: Noted,
    handler: async (p, meta) => {
      process.stdout.write(`GOT ${JSON.stringify({ text: p.text, deliveryCount: meta.deliveryCount })}\n`);
      if (mode === 'hold') await new Promise(() => undefined);
    },
  });
  if (mode === 'hold') {
    await bus.publish(Noted, { text: 'one' }, { msgId: 'note-1' });
    await bus.publish(Noted, { text: 'two' }, { msgId: 'note-2' });
    process.stdout.write('PUBLISHED\n');
  }
  process.stdout.write('READY\n');
}

main(process.argv[2] ?? 'take', process.env['DATABASE_URL'] ?? '').catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
