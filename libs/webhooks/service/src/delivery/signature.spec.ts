import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { standardWebhookHeaders } from './signature';

/** The signature of every attempt (decision 0512: the body is hashed where it is, not copied after its prefix). */
describe('standardWebhookHeaders', () => {
  const body = JSON.stringify({ event: { action: 'update', scope: 'repo' }, note: 'é ✓ "quoted"' });
  const now = new Date('2026-11-28T17:00:00Z');

  it('signs `id.timestamp.body` with the secret as UTF-8 bytes, as before', () => {
    const secret = 'bench-sécret';
    const headers = standardWebhookHeaders('d1', secret, body, now);
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
      .update(`d1.${Math.floor(now.getTime() / 1000)}.${body}`)
      .digest('base64');
    expect(headers).toEqual({
      'webhook-id': 'd1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': `v1,${expected}`,
    });
  });

  it('verifies with the standardwebhooks package (raw key)', () => {
    const secret = 'bench-secret';
    const headers = standardWebhookHeaders('d2', secret, body);
    expect(new Webhook(secret, { format: 'raw' }).verify(body, headers)).toEqual(JSON.parse(body));
  });
});
