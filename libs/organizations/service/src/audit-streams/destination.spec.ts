import { type AuditStreamBodyDto } from '@hub/organizations-contract';
import { destinationOf, hintOf } from './destination';

const body = (b: Record<string, unknown>): AuditStreamBodyDto => b as unknown as AuditStreamBodyDto;

describe('destinationOf', () => {
  it('splits settings from credentials, per type', () => {
    expect(
      destinationOf(
        body({
          type: 's3',
          bucket: 'audit',
          region: 'eu-west-1',
          accessKeyId: 'AKIAEXAMPLE',
          secretAccessKey: 'secret-key-1',
          filter: ['org'],
        }),
      ),
    ).toEqual({
      type: 's3',
      settings: { bucket: 'audit', region: 'eu-west-1' },
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret-key-1' },
      filter: ['org'],
    });
  });

  it.each([
    [{ type: 'https', secret: 'x'.repeat(16) }, 'url is required for a https stream'],
    [{ type: 'https', url: 'https://siem.example' }, 'secret is required for a https stream'],
    [
      { type: 'splunk', url: 'https://splunk.example', token: 'tok-12345', apiKey: 'k'.repeat(8) },
      'apiKey is not a field of a splunk stream',
    ],
    [
      { type: 'datadog', site: 'datadoghq.eu', apiKey: 'k'.repeat(8), url: 'https://x' },
      'url is not a field of a datadog stream',
    ],
    [
      { type: 's3', bucket: 'b-1', accessKeyId: 'AKIA', secretAccessKey: 'secret-key' },
      'region is required for a s3 stream',
    ],
  ])('refuses %j: %s', (b, message) => {
    expect(() => destinationOf(body(b))).toThrow(message);
  });

  it('keeps the sealed credentials on a replace of the same type, not of another', () => {
    const replace = body({ type: 'splunk', url: 'https://splunk.example/h' });
    expect(destinationOf(replace, { type: 'splunk' }).credentials).toEqual({});
    expect(() => destinationOf(replace, { type: 'https' })).toThrow('token is required for a splunk stream');
  });

  it('hints the last four characters only', () => {
    expect(hintOf('super-secret-abcd')).toBe('…abcd');
  });
});
