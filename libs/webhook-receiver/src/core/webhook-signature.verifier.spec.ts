import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { omit } from '../testing/payload.fixtures';
import { WebhookSignatureVerifier } from './webhook-signature.verifier';

const SECRET = 'whsec-not-base64: printable ASCII!';
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const reference = new Webhook(SECRET, { format: 'raw' });

function signed(body: string, id = 'msg_1', date = new Date(NOW)) {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(date.getTime() / 1000)),
    'webhook-signature': reference.sign(id, date, body),
  };
}

describe('WebhookSignatureVerifier', () => {
  const verifier = new WebhookSignatureVerifier(SECRET, 300, () => NOW);

  it('accepts what the standardwebhooks package signs with {format: "raw"}', () => {
    const body = '{"event":{"action":"update","scope":"repo"}}';
    expect(verifier.check(signed(body), Buffer.from(body))).toEqual({ kind: 'verified', webhookId: 'msg_1' });
  });

  it('agrees with the reference verifier for any printable-ASCII secret, id and UTF-8 body', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...' !"#$%&()*+,-./09:;<=>?@AZ[]^_`az{|}~'.split('')), minLength: 1 }),
        fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
        fc.string({ unit: 'grapheme' }),
        (secret, id, body) => {
          const date = new Date(NOW);
          const headers = {
            'webhook-id': id,
            'webhook-timestamp': String(NOW / 1000),
            'webhook-signature': new Webhook(secret, { format: 'raw' }).sign(id, date, body),
          };
          const ours = new WebhookSignatureVerifier(secret, 300, () => NOW).check(headers, Buffer.from(body, 'utf8'));
          expect(ours).toEqual({ kind: 'verified', webhookId: id });
        },
      ),
    );
  });

  it('accepts a header with several signatures when one of them is valid (secret rotation)', () => {
    const body = '{}';
    const headers = signed(body);
    headers['webhook-signature'] =
      `v1,${Buffer.alloc(32).toString('base64')} v1a,somethingelse ${headers['webhook-signature']}`;
    expect(verifier.check(headers, Buffer.from(body)).kind).toBe('verified');
  });

  it('rejects a tampered body, a signature by another secret, and garbage', () => {
    const headers = signed('{"a":1}');
    expect(verifier.check(headers, Buffer.from('{"a":2}'))).toMatchObject({
      kind: 'rejected',
      error: { code: 'SIGNATURE_INVALID', status: 401 },
    });
    const forged = {
      ...headers,
      'webhook-signature': new Webhook('other', { format: 'raw' }).sign('msg_1', new Date(NOW), '{"a":1}'),
    };
    expect(verifier.check(forged, Buffer.from('{"a":1}')).kind).toBe('rejected');
    expect(verifier.check({ ...headers, 'webhook-signature': 'v1,!!!' }, Buffer.from('{"a":1}')).kind).toBe('rejected');
    expect(verifier.check({ ...headers, 'webhook-signature': 'v2,abc' }, Buffer.from('{"a":1}')).kind).toBe('rejected');
  });

  it('rejects a timestamp outside the 5-minute tolerance, either way, and accepts one at the edge', () => {
    const at = (offsetSeconds: number) =>
      verifier.check(signed('{}', 'm', new Date(NOW + offsetSeconds * 1000)), Buffer.from('{}'));
    expect(at(-301)).toMatchObject({ kind: 'rejected', error: { code: 'SIGNATURE_TIMESTAMP_OUT_OF_TOLERANCE' } });
    expect(at(301)).toMatchObject({ kind: 'rejected', error: { code: 'SIGNATURE_TIMESTAMP_OUT_OF_TOLERANCE' } });
    expect(at(-300).kind).toBe('verified');
    expect(at(300).kind).toBe('verified');
  });

  it('rejects a timestamp that is not Unix seconds', () => {
    const headers = { ...signed('{}'), 'webhook-timestamp': '2026-11-22T12:00:00Z' };
    expect(verifier.check(headers, Buffer.from('{}'))).toMatchObject({
      kind: 'rejected',
      error: { code: 'SIGNATURE_TIMESTAMP_INVALID' },
    });
  });

  it('reports an unsigned request as such, and an incomplete set of headers as a rejection naming the missing one', () => {
    expect(verifier.check({}, Buffer.from('{}'))).toEqual({ kind: 'unsigned' });
    const result = verifier.check(omit(signed('{}'), 'webhook-timestamp'), Buffer.from('{}'));
    expect(result.kind === 'rejected' && result.error.message).toMatch(/^webhook-timestamp header not set/);
  });
});
