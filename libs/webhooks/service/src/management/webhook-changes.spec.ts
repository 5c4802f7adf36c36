import fc from 'fast-check';
import { BadRequestError, WATCHED_TYPES, WEBHOOK_DOMAINS } from '@hub/contracts';
import { type CreateJobDto } from '@hub/jobs-contract';
import { type WebhookBodyDto } from '@hub/webhooks-contract';
import { changesFrom } from './webhook-changes';
import { type WebhookRow } from './webhook-row';

/** Decision 0500: what a create or an update of a webhook writes, from the validated body and the current row. */
const job = { flavor: 'cpu-basic', dockerImage: 'python:3.12', command: ['python', '-c', 'print(1)'] } as CreateJobDto;
const current: WebhookRow = {
  id: '64b7f0c2a1b2c3d4e5f60718',
  owner_id: 'o'.repeat(24),
  owner_name: 'alice',
  url: 'https://example.com/hook',
  job: null,
  job_source_id: null,
  secret_enc: 'enc',
  headers_enc: null,
  domains: ['repo'],
  disabled: 'false',
  last_trigger_at: null,
  watched: [{ type: 'model', name: 'alice/tiny' }],
};
const body = (b: Partial<WebhookBodyDto>): WebhookBodyDto => b as WebhookBodyDto;
const kept = {
  url: current.url,
  job: null,
  jobSourceId: null,
  watched: current.watched,
  domains: current.domains,
  secret: undefined,
};

function refused(b: Partial<WebhookBodyDto>, row?: WebhookRow): string {
  try {
    changesFrom(body(b), row);
  } catch (e) {
    expect(e).toBeInstanceOf(BadRequestError);
    return (e as Error).message;
  }
  throw new Error(`${JSON.stringify(b)} was accepted`);
}

describe('webhook changes', () => {
  it('a create needs exactly one target, a watched item and a domain; no secret is no secret', () => {
    expect(
      changesFrom(
        body({ url: 'https://x.test/h', watched: [{ type: 'user', name: 'bob' }], domains: ['repo', 'discussion'] }),
      ),
    ).toEqual({
      url: 'https://x.test/h',
      job: null,
      jobSourceId: null,
      watched: [{ type: 'user', name: 'bob' }],
      domains: ['repo', 'discussion'],
      secret: null,
    });
    expect(refused({ watched: [{ type: 'user', name: 'bob' }], domains: ['repo'] })).toMatch(
      /exactly one of url, job and jobSourceId/,
    );
    expect(
      refused({ url: 'https://x.test', job, watched: [{ type: 'user', name: 'bob' }], domains: ['repo'] }),
    ).toMatch(/exactly one/);
    expect(refused({ url: 'https://x.test', watched: [], domains: ['repo'] })).toMatch(
      /watched must contain at least 1 item/,
    );
    expect(refused({ url: 'https://x.test', watched: [{ type: 'user', name: 'bob' }] })).toMatch(
      /domains must contain at least 1 item/,
    );
    expect(refused({ url: 'https://x.test', watched: [{ type: 'user', name: 'bob' }], domains: [] })).toMatch(
      /domains must contain/,
    );
  });

  it('an empty update, or the nulls and empty watched list older Python clients send, keeps the webhook', () => {
    expect(changesFrom(body({}), current)).toEqual(kept);
    expect(
      changesFrom(body({ url: null, job: null, jobSourceId: null, watched: [], domains: null, secret: null }), current),
    ).toEqual(kept);
  });

  it('a new target replaces the old one; the other targets are cleared', () => {
    expect(changesFrom(body({ job }), current)).toMatchObject({ url: null, job, jobSourceId: null });
    expect(changesFrom(body({ jobSourceId: '64B7F0C2A1B2C3D4E5F60718' }), current)).toMatchObject({
      url: null,
      job: null,
      jobSourceId: '64b7f0c2a1b2c3d4e5f60718',
    });
    expect(refused({ url: 'https://x.test', jobSourceId: '64b7f0c2a1b2c3d4e5f60718' }, current)).toMatch(/exactly one/);
  });

  it('a secret: absent or null keeps it on update, "" removes it, a string sets it', () => {
    expect(changesFrom(body({ secret: '' }), current).secret).toBeNull();
    expect(changesFrom(body({ secret: 's3cret' }), current).secret).toBe('s3cret');
    expect(
      changesFrom(
        body({ url: 'https://x.test', watched: [{ type: 'user', name: 'bob' }], domains: ['repo'], secret: '' }),
      ).secret,
    ).toBeNull();
  });

  it('watched items are deduplicated by type and case-insensitive name, the first kept; domains once each', () => {
    const changes = changesFrom(
      body({
        watched: [
          { type: 'model', name: 'Alice/Tiny' },
          { type: 'model', name: 'alice/tiny' },
          { type: 'dataset', name: 'alice/tiny' },
        ],
        domains: ['repo', 'repo'],
      }),
      current,
    );
    expect(changes.watched).toEqual([
      { type: 'model', name: 'Alice/Tiny' },
      { type: 'dataset', name: 'alice/tiny' },
    ]);
    expect(changes.domains).toEqual(['repo']);
  });
});

const hex24 = fc.stringMatching(/^[0-9a-f]{24}$/);
const watchedItem = fc.record({
  type: fc.constantFrom(...WATCHED_TYPES),
  name: fc.stringMatching(/^[A-Za-z0-9][\w.-]{0,8}(\/[\w.-]{1,8})?$/),
});
const domains = fc.uniqueArray(fc.constantFrom(...WEBHOOK_DOMAINS), { minLength: 1 });
const target = fc.oneof(
  fc.webUrl().map((url) => ({ url, job: null, job_source_id: null })),
  fc.constant({ url: null, job, job_source_id: null }),
  hex24.map((id) => ({ url: null, job: null, job_source_id: id })),
);
const row: fc.Arbitrary<WebhookRow> = fc
  .tuple(
    target,
    fc.uniqueArray(watchedItem, { minLength: 1, maxLength: 5, selector: (w) => `${w.type}:${w.name.toLowerCase()}` }),
    domains,
    fc.option(fc.constant('enc')),
  )
  .map(([t, watched, d, secret]) => ({ ...current, ...t, watched, domains: d, secret_enc: secret }));
/** Each field of an update the caller left out, as a client may send it: absent or null (watched: also []). */
const leftOut = fc.record(
  {
    url: fc.constant(null),
    job: fc.constant(null),
    jobSourceId: fc.constant(null),
    domains: fc.constant(null),
    secret: fc.constant(null),
    watched: fc.constantFrom(null, []),
  },
  { requiredKeys: [] },
);

describe('webhook changes properties', () => {
  it('applying an update that changes nothing keeps the webhook as it is', () => {
    fc.assert(
      fc.property(row, leftOut, (r, update) => {
        expect(changesFrom(body(update as Partial<WebhookBodyDto>), r)).toEqual({
          url: r.url,
          job: r.job,
          jobSourceId: r.job_source_id,
          watched: r.watched,
          domains: r.domains,
          secret: undefined,
        });
      }),
    );
  });

  it('a body with two or three targets is refused; with one, the result has that target only', () => {
    const targets = fc.record({
      url: fc.option(fc.webUrl(), { nil: undefined }),
      job: fc.option(fc.constant(job), { nil: undefined }),
      jobSourceId: fc.option(hex24, { nil: undefined }),
    });
    fc.assert(
      fc.property(
        targets,
        fc.option(row, { nil: undefined }),
        fc.array(watchedItem, { minLength: 1, maxLength: 3 }),
        domains,
        (t, r, watched, d) => {
          const given = [t.url, t.job, t.jobSourceId].filter((x) => x !== undefined).length;
          if (given > 1 || (given === 0 && !r)) {
            expect(refused({ ...t, watched, domains: d }, r)).toMatch(/exactly one of url, job and jobSourceId/);
            return;
          }
          const c = changesFrom(body({ ...t, watched, domains: d }), r);
          expect([c.url, c.job, c.jobSourceId].filter((x) => x !== null)).toHaveLength(1);
          if (given === 1)
            expect(c).toMatchObject({ url: t.url ?? null, job: t.job ?? null, jobSourceId: t.jobSourceId ?? null });
        },
      ),
    );
  });

  it('the watched list written holds each (type, name) given exactly once, ignoring case', () => {
    fc.assert(
      fc.property(fc.array(watchedItem, { minLength: 1, maxLength: 12 }), fc.webUrl(), (watched, url) => {
        const c = changesFrom(body({ url, watched, domains: ['repo'] }));
        const keys = c.watched.map((w) => `${w.type}:${w.name.toLowerCase()}`);
        expect(new Set(keys).size).toBe(keys.length);
        expect(new Set(keys)).toEqual(new Set(watched.map((w) => `${w.type}:${w.name.toLowerCase()}`)));
        expect(c.watched.every((w) => watched.includes(w))).toBe(true);
      }),
    );
  });
});
