import { describeWithInfra, OpenApiResponseValidator, openApiValidatorForApp } from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

interface Op {
  security?: unknown[];
  responses: Record<
    string,
    { content?: Record<string, { schema?: { $ref?: string; type?: string; items?: { $ref?: string } } }> }
  >;
}

/**
 * The document the suites validate against: every operation declares its success schema and its
 * errors as the one error body, every schema compiles, and a body that breaks it is caught.
 */
describeWithInfra('the OpenAPI document is a checked contract', () => {
  let t: TestHub;
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, Op>>;
    components: { schemas: Record<string, Record<string, unknown>> };
  };

  beforeAll(async () => {
    t = await startTestHub({ HUB_ADMIN_TOKEN: 'openapi-contract-admin-token' });
    doc = (await t.fastify.inject({ method: 'GET', url: '/.well-known/openapi.json' })).json();
  });

  afterAll(() => t?.close());

  it('declares a JSON schema for the success answer of every operation and ErrorBody for every error', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const statuses = Object.keys(op.responses);
        const success = statuses.filter((s) => /^2/.test(s));
        // Only SCIM's /Me has no success answer: RFC 7644 3.11 lets it answer 501 (decision 0421).
        const notSupported = /\/scim\/v2\/Me\/?$/.test(path) && statuses.includes('501');
        if (success.length === 0 && !notSupported) missing.push(`${method} ${path}: no success answer`);
        // Server-sent-event streams (the job logs, events, metrics) declare text/event-stream instead (decision 0600);
        // SCIM answers application/scim+json, its errors in RFC 7644's shape (decision 0420).
        const scim = path.includes('/scim/v2/');
        const [json, errorBody] = scim ? ['application/scim+json', 'ScimErrorBody'] : ['application/json', 'ErrorBody'];
        const schemaOf = (s: string): unknown =>
          op.responses[s]?.content?.[json]?.schema ?? op.responses[s]?.content?.['text/event-stream']?.schema;
        for (const s of success) if (s !== '204' && !schemaOf(s)) missing.push(`${method} ${path} ${s}: no schema`);
        for (const s of statuses.filter((x) => Number(x) >= 400)) {
          if (op.responses[s]?.content?.[json]?.schema?.$ref !== `#/components/schemas/${errorBody}`)
            missing.push(`${method} ${path} ${s}: not ${errorBody}`);
        }
        for (const s of ['429', '500']) if (!statuses.includes(s)) missing.push(`${method} ${path}: no ${s}`);
        if (op.security?.length !== 0 && !statuses.includes('401')) missing.push(`${method} ${path}: no 401`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('is OpenAPI 3.1 whose every response schema ajv (JSON Schema 2020-12) compiles', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
    expect(new OpenApiResponseValidator(doc).compileAll()).toBeGreaterThan(20);
  });

  it('closes the shapes the architecture gives (whoami, the error body) and the views', () => {
    const closed = Object.entries(doc.components.schemas)
      .filter(([, s]) => s['additionalProperties'] === false)
      .map(([n]) => n);
    expect(closed).toEqual(
      expect.arrayContaining([
        'ErrorBody',
        'EmptyAnswer',
        'WhoAmI',
        'WhoAmIOrg',
        'WhoAmIAuth',
        'WhoAmIAccessToken',
        'OrgMember',
        'UserView',
        'CreatedTokenAnswer',
        'OrganizationView',
        'MemberView',
        'OrgRevocationView',
        'PublishedEvent',
      ]),
    );
    expect(doc.components.schemas['WhoAmIOrg']?.['properties']).toMatchObject({
      periodEnd: { type: ['number', 'null'] },
    });
  });

  it('fails an answer that breaks the document, so the suites cannot pass by accident', async () => {
    const v = await openApiValidatorForApp(t.fastify);
    const whoami = (path = '/api/whoami-v2', status = 200, body: unknown = {}) =>
      v.problems({ method: 'GET', path, status, contentType: 'application/json; charset=utf-8', body });
    expect(whoami('/api/whoami-v2', 200, { type: 'user' }).join('\n')).toMatch(/must have required property 'id'/);
    expect(whoami('/api/whoami-v2', 401, { error: 'x', stack: 'leak' }).join('\n')).toMatch(
      /additional properties \(stack\)/,
    );
    expect(whoami('/api/whoami-v2', 418, { error: 'x' }).join('\n')).toMatch(/does not declare/);
    expect(whoami('/api/not-an-operation', 200, {}).join('\n')).toMatch(/not an operation/);
    expect(whoami('/api/not-an-operation', 404, { error: 'Cannot GET /api/not-an-operation' })).toEqual([]);
    expect(
      v.problems({
        method: 'GET',
        path: '/api/organizations/acme/members?x=1',
        status: 200,
        contentType: 'application/json',
        body: [{ _id: '6561f0c2a1b2c3d4e5f60718', type: 'user', user: 'a', role: 'admin' }],
      }),
    ).toEqual([]);
    expect(
      v.problems({
        method: 'GET',
        path: '/api/organizations/acme/members',
        status: 200,
        contentType: 'application/json',
        body: [{ _id: 'nope', type: 'org', user: 'a', role: 'admin' }],
      }).length,
    ).toBe(2);
    expect(() =>
      v.assert({ method: 'GET', path: '/api/whoami-v2', status: 200, contentType: 'text/html', body: '<html>' }),
    ).toThrow(/content type text\/html/);
  });
});
