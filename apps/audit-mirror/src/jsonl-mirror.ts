import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { type AuditPayload, type EventMeta, type IdempotencyStore } from '@hub/bus-client';

/** One line of the mirror file. */
export interface MirrorLine {
  id: string;
  subject: string;
  publishedAt: string;
  event: AuditPayload;
}

/**
 * A JSON-lines file of audit events that is its own idempotency store: an event id already in
 * the file is never appended again (a redelivery after a crash, a replay from the start).
 */
export class JsonlMirror implements IdempotencyStore {
  private readonly ids = new Set<string>();

  constructor(private readonly file: string) {
    if (!existsSync(file)) return;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        this.ids.add((JSON.parse(line) as MirrorLine).id);
      } catch {
        // A line cut by a crash mid-write: its event comes again and is appended whole.
      }
    }
  }

  has(eventId: string): boolean {
    return this.ids.has(eventId);
  }

  add(eventId: string): void {
    this.ids.add(eventId);
  }

  /** Appends the event (synchronously: the ack follows only once the line is written). */
  append(event: AuditPayload, meta: EventMeta): void {
    const line: MirrorLine = {
      id: meta.eventId,
      subject: meta.subject,
      publishedAt: meta.publishedAt.toISOString(),
      event,
    };
    appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }
}
