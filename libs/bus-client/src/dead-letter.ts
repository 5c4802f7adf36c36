import { type BusNames } from './bus-names';
import { type EventMeta } from './consume-options';

/** The hub's dead-letter payload (`HubEvents.deadLetter`), so one tool reads both kinds. */
export interface DeadLetter {
  subject: string;
  msgId?: string;
  reason: 'invalid' | 'failed';
  error: string;
  consumer: string;
  deliveryCount: number;
  payload?: unknown;
  deadLetteredAt: string;
}

interface Input {
  meta: EventMeta;
  consumer: string;
  names: BusNames;
  reason: DeadLetter['reason'];
  error: string;
  payload: unknown;
}

/**
 * `hub.deadletter.<original subject>` (prefixed), kept by the hub's `HUB_DEADLETTER` stream.
 * The message id `dead:<consumer>:<event id>` keeps one copy per consumer and event.
 */
export function deadLetterFor(input: Input): { subject: string; msgId: string; message: DeadLetter } {
  const { meta } = input;
  return {
    subject: input.names.subject(`hub.deadletter.${meta.subject}`),
    msgId: `dead:${input.consumer}:${meta.eventId}`,
    message: {
      subject: meta.subject,
      msgId: meta.eventId,
      reason: input.reason,
      error: input.error,
      consumer: input.consumer,
      deliveryCount: meta.deliveryCount,
      payload: input.payload,
      deadLetteredAt: new Date().toISOString(),
    },
  };
}
