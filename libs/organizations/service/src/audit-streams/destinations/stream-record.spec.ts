import { datadogLogs, jsonLines, splunkEvents, type StreamRecord } from './stream-record';

const records: StreamRecord[] = [
  {
    id: 'a'.repeat(24),
    createdAt: '2026-11-27T10:00:00.250Z',
    doc: '{"_id":"aaaaaaaaaaaaaaaaaaaaaaaa","type":"org.create"}',
  },
  {
    id: 'b'.repeat(24),
    createdAt: '2026-11-27T10:00:01.000Z',
    doc: '{"_id":"bbbbbbbbbbbbbbbbbbbbbbbb","type":"org.add_user"}',
  },
];

describe('stream record formats', () => {
  it('writes JSON lines, one event a line', () => {
    const lines = jsonLines(records).toString().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.slice(0, 2).map((l) => (JSON.parse(l) as { _id: string })._id)).toEqual(records.map((r) => r.id));
    expect(lines[2]).toBe('');
  });

  it("writes Splunk HEC's concatenated events with time and sourcetype", () => {
    const events = splunkEvents(records)
      .toString()
      .split('\n')
      .map((l) => JSON.parse(l) as { time: number; sourcetype: string; event: { _id: string } });
    expect(events[0]).toEqual({
      time: 1795773600.25,
      source: 'hub-audit-log',
      sourcetype: 'hub:audit',
      event: { _id: records[0].id, type: 'org.create' },
    });
    expect(events[1].event._id).toBe(records[1].id);
  });

  it("writes Datadog's log array, the event as the message", () => {
    const logs = JSON.parse(datadogLogs(records, 'acme').toString()) as Record<string, string>[];
    expect(logs[0]).toEqual({
      ddsource: 'hub',
      service: 'hub-audit-log',
      ddtags: 'organization:acme',
      message: records[0].doc,
    });
  });
});
