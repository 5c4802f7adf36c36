import { BUS_PREFIX, type DeadLetterMessage, type EventDescriptor, Events } from '@hub/contracts';

/** `hub.deadletter.<original subject without the bus prefix>` (the prefix comes back in front). */
export function deadLetterDescriptor(originalSubject: string): EventDescriptor<DeadLetterMessage> {
  const bare =
    BUS_PREFIX && originalSubject.startsWith(`${BUS_PREFIX}.`)
      ? originalSubject.slice(BUS_PREFIX.length + 1)
      : originalSubject;
  return Events.DeadLetter.of(bare);
}

/** A dead letter is never dead-lettered again: a bad one is logged and dropped. */
export function isDeadLetterSubject(subject: string): boolean {
  return subject.startsWith(Events.DeadLetter.pattern.slice(0, -1));
}

export interface DeadLetterInput {
  subject: string;
  msgId?: string;
  reason: 'invalid' | 'failed';
  error: string;
  consumer: string;
  deliveryCount: number;
  payload: unknown;
}

export function deadLetterMessage(input: DeadLetterInput): DeadLetterMessage {
  return { ...input, deadLetteredAt: new Date().toISOString() };
}

/**
 * Dead letters are deduplicated per consumer and message: replicas of one listener, or a
 * consumer that crashed after dead-lettering, put one copy on the dead-letter subject.
 */
export function deadLetterMsgId(consumer: string, msgId: string | undefined): string | undefined {
  return msgId ? `dead:${consumer}:${msgId}` : undefined;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
