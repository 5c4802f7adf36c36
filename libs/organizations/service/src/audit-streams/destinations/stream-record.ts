/** One audit event as a stream sends it: the export's JSON (spec 2.9), whose `_id` lets a SIEM dedupe. */
export interface StreamRecord {
  id: string;
  /** ISO time of the action. */
  createdAt: string;
  /** The event's JSON text, exactly as the export answers it. */
  doc: string;
}

/** JSON lines: one event a line, each ending with a newline. */
export function jsonLines(records: StreamRecord[]): Buffer {
  return Buffer.from(records.map((r) => `${r.doc}\n`).join(''));
}

/**
 * Splunk HEC's batch form: event objects one after the other, each with its `time` (epoch seconds,
 * milliseconds as decimals) and `sourcetype`.
 */
export function splunkEvents(records: StreamRecord[]): Buffer {
  return Buffer.from(
    records
      .map(
        (r) =>
          `{"time":${(Date.parse(r.createdAt) / 1000).toFixed(3)},"source":"hub-audit-log","sourcetype":"hub:audit","event":${r.doc}}`,
      )
      .join('\n'),
  );
}

/** Datadog's `/api/v2/logs` array: the event's JSON as the message (Datadog parses JSON messages into attributes). */
export function datadogLogs(records: StreamRecord[], organization: string): Buffer {
  return Buffer.from(
    JSON.stringify(
      records.map((r) => ({
        ddsource: 'hub',
        service: 'hub-audit-log',
        ddtags: `organization:${organization}`,
        message: r.doc,
      })),
    ),
  );
}
