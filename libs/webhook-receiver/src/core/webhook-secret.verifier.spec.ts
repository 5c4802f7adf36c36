import { WebhookSecretVerifier } from './webhook-secret.verifier';

describe('WebhookSecretVerifier', () => {
  const verifier = new WebhookSecretVerifier('s3cret');

  it('accepts the exact secret', () => {
    expect(verifier.check({ 'x-webhook-secret': 's3cret' })).toBeUndefined();
  });

  it.each([[{}], [{ 'x-webhook-secret': '' }]])('answers 401 when the header is missing or empty (%p)', (headers) => {
    expect(verifier.check(headers)).toMatchObject({ status: 401, message: 'x-webhook-secret header not set.' });
  });

  it.each(['s3cre', 's3cret ', 'S3CRET', 's3cret-and-more'])('answers 403 for %p', (given) => {
    expect(verifier.check({ 'x-webhook-secret': given })).toMatchObject({
      status: 403,
      message: 'Invalid webhook secret.',
    });
  });
});
