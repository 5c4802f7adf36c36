import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildAsyncApiDocument } from './asyncapi-document';
import { type JsonSchema } from '@hub/contracts';
import { breakingChanges, schemaBreaks } from './schema-compat';

const RELEASED = resolve(__dirname, '../../../../docs/asyncapi/released.json');
const released = (): ReturnType<typeof buildAsyncApiDocument> => JSON.parse(readFileSync(RELEASED, 'utf8'));

describe('the bus contract against the released one (decision 0701)', () => {
  it('breaks no subscriber of docs/asyncapi/released.json', () => {
    expect(breakingChanges(released(), buildAsyncApiDocument())).toEqual([]);
  });

  it('catches a required field removed from a payload', () => {
    const current = buildAsyncApiDocument();
    const payload = current.channels['tokenRevoked'].messages['TokenRevoked'].payload;
    payload['required'] = (payload['required'] as string[]).filter((r) => r !== 'revokedAt');
    delete (payload['properties'] as Record<string, unknown>)['revokedAt'];
    expect(breakingChanges(released(), current)).toEqual([
      'tokenRevoked.TokenRevoked.revokedAt: was required, is no longer (removed or made optional)',
    ]);
  });

  it('catches a nested required field removed, a type widened and a bound loosened', () => {
    const current = buildAsyncApiDocument();
    const audit = current.channels['audit'].messages['Audit'].payload['properties'] as Record<string, JsonSchema>;
    const author = audit['author'];
    author['required'] = ['_id', 'type'];
    audit['organizationId'] = { type: ['string', 'null'], pattern: '^[0-9a-f]{24}$' };
    const tokens = current.channels['tokenRevoked'].messages['TokenRevoked'].payload['properties'] as Record<
      string,
      JsonSchema
    >;
    tokens['tokenIds'] = { ...tokens['tokenIds'], maxItems: 5000 };
    expect(breakingChanges(released(), current)).toEqual([
      'audit.Audit.organizationId: type string became string|null',
      'audit.Audit.author.user: was required, is no longer (removed or made optional)',
      'tokenRevoked.TokenRevoked.tokenIds: maxItems raised from 1000 to 5000',
    ]);
  });

  it('lets a payload grow: a new optional or required member, a new enum value, a new channel', () => {
    const current = buildAsyncApiDocument();
    const payload = current.channels['jobStatus'].messages['JobStatus'].payload;
    const props = payload['properties'] as Record<string, JsonSchema>;
    props['region'] = { type: 'string' };
    props['hardware'] = { type: ['string', 'null'] };
    payload['required'] = [...(payload['required'] as string[]), 'region'];
    props['stage'] = { enum: [...(props['stage']['enum'] as string[]), 'PAUSED'] };
    current.channels['newThing'] = { ...current.channels['jobStatus'], address: 'hub.jobs.job.paused' };
    expect(breakingChanges(released(), current)).toEqual([]);
  });

  it('lets a deprecated channel go only after its window', () => {
    const previous = released();
    previous.channels['jobStatus']['x-hub-deprecated'] = { replacedBy: 'hub.v2.jobs.job.status', until: '2027-03-01' };
    const current = buildAsyncApiDocument();
    delete (current.channels as Record<string, unknown>)['jobStatus'];
    expect(breakingChanges(previous, current, new Date('2027-02-28'))).toEqual([
      'channel jobStatus (hub.jobs.job.status) was removed before 2027-03-01',
    ]);
    expect(breakingChanges(previous, current, new Date('2027-03-02'))).toEqual([]);
    expect(breakingChanges(released(), current)).toEqual([
      'channel jobStatus (hub.jobs.job.status) was removed without a deprecation window',
    ]);
  });

  it('treats a changed pattern as breaking and a narrower one of two (allOf) as safe', () => {
    expect(schemaBreaks({ type: 'string', pattern: '^a' }, { type: 'string', pattern: '^b' })).toEqual([
      '$: pattern changed from ^a to ^b',
    ]);
    expect(
      schemaBreaks({ type: 'string', pattern: '^a' }, { allOf: [{ type: 'string', pattern: '^a' }, { minLength: 1 }] }),
    ).toEqual([]);
    expect(schemaBreaks({ type: 'number' }, { type: 'integer' })).toEqual([]);
  });
});
