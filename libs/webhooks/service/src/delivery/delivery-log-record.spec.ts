import { type LoggedAttempt, logRecord, logRow } from './delivery-log.store';

const attempt = (
  over: Partial<LoggedAttempt['result']> = {},
  payload = '{"event":{"scope":"repo","action":"update"},"repo":{"name":"a/b"}}',
): LoggedAttempt => ({
  webhookId: 'w'.repeat(24),
  deliveryId: 'd'.repeat(24),
  trigger: 'scheduled',
  attempt: 2,
  requestHeaders: { 'content-type': 'application/json', 'x-webhook-secret': 's3cret' },
  payload,
  result: { status: 200, headers: { a: 'b' }, body: 'ok', error: null, durationMs: 7, ...over },
});

/** A log row as the outcome group sends it: one JSON object per row (decision 0512), the same values as logRow's. */
describe('logRecord', () => {
  it('holds what logRow holds, the headers as objects', () => {
    const a = attempt();
    const row = logRow(a);
    const record = logRecord(a);
    expect(Object.keys(record)).toEqual(
      'id, webhook_id, delivery_id, trigger, attempt, request_headers, payload, status, response_headers, response_body, duration_ms, error, event, repo'.split(
        ', ',
      ),
    );
    expect({ ...record, id: row[0] }).toEqual({
      id: row[0],
      webhook_id: row[1],
      delivery_id: row[2],
      trigger: row[3],
      attempt: row[4],
      request_headers: JSON.parse(row[5] as string),
      payload: row[6],
      status: row[7],
      response_headers: JSON.parse(row[8] as string),
      response_body: row[9],
      duration_ms: row[10],
      error: row[11],
      event: 'repo.update',
      repo: 'a/b',
    });
    expect(record.request_headers).toEqual({ 'content-type': 'application/json', 'x-webhook-secret': '[redacted]' });
    expect(a.requestHeaders['x-webhook-secret']).toBe('s3cret');
  });

  it('takes the search keys given, drops NUL from the body and makes lone surrogates U+FFFD (valid JSON text for Postgres)', () => {
    const a = { ...attempt({ body: 'a\u0000b', error: 'bad \ud800 x' }), search: { event: 'e', repo: 'r\udc00' } };
    expect(logRecord(a)).toMatchObject({ response_body: 'ab', error: 'bad \ufffd x', event: 'e', repo: 'r\ufffd' });
    expect(logRecord(attempt({ error: 'pair 😀 kept' })).error).toBe('pair 😀 kept');
  });
});
