import { OpenApiResponseValidator } from './response-validator';

/** A document in the shape our gateway writes: refs into components, ErrorBody, 3.1 null types. */
const doc = {
  openapi: '3.1.0',
  paths: {
    '/api/things/{id}': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          '404': {
            description: 'no',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
          },
        },
      },
    },
    '/api/things': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      ErrorBody: {
        type: 'object',
        properties: { error: { type: 'string' } },
        required: ['error'],
        additionalProperties: false,
      },
      Thing: {
        type: 'object',
        properties: { id: { type: 'string' }, seenAt: { type: ['string', 'null'], format: 'date-time' } },
        required: ['id', 'seenAt'],
        additionalProperties: false,
      },
    },
  },
};

const json = 'application/json; charset=utf-8';

describe('OpenApiResponseValidator', () => {
  const v = new OpenApiResponseValidator(doc);

  it('accepts answers that follow the document, query strings and path templates included', () => {
    expect(
      v.problems({
        method: 'GET',
        path: '/api/things/7?x=1',
        status: 200,
        contentType: json,
        body: { id: '7', seenAt: null },
      }),
    ).toEqual([]);
    expect(
      v.problems({
        method: 'GET',
        path: '/api/things',
        status: 200,
        contentType: json,
        body: [{ id: '7', seenAt: '2026-11-23T13:00:00.000Z' }],
      }),
    ).toEqual([]);
    expect(
      v.problems({
        method: 'GET',
        path: '/api/things/7',
        status: 404,
        contentType: json,
        body: { error: 'Thing 7 not found' },
      }),
    ).toEqual([]);
  });

  it('fails a body that breaks the schema: missing, extra, mistyped or badly formatted fields', () => {
    const bad = (body: unknown): string =>
      v.problems({ method: 'GET', path: '/api/things/7', status: 200, contentType: json, body }).join('\n');
    expect(bad({ seenAt: null })).toMatch(/required property 'id'/);
    expect(bad({ id: '7', seenAt: null, secret: 'x' })).toMatch(/additional properties \(secret\)/);
    expect(bad({ id: 7, seenAt: null })).toMatch(/body\/id must be string/);
    expect(bad({ id: '7', seenAt: 'yesterday' })).toMatch(/must match format "date-time"/);
    expect(() => v.assert({ method: 'GET', path: '/api/things/7', status: 200, contentType: json, body: {} })).toThrow(
      /breaks the OpenAPI document/,
    );
  });

  it('fails an undeclared status, an unknown operation, an undeclared content type', () => {
    expect(
      v.problems({ method: 'GET', path: '/api/things/7', status: 409, contentType: json, body: { error: 'x' } }).join(),
    ).toMatch(/does not declare/);
    expect(
      v.problems({ method: 'POST', path: '/api/things', status: 201, contentType: json, body: {} }).join(),
    ).toMatch(/not an operation/);
    expect(v.problems({ method: 'GET', path: '/api/other', status: 200, contentType: json, body: {} }).join()).toMatch(
      /not an operation/,
    );
    expect(
      v.problems({ method: 'GET', path: '/api/things/7', status: 200, contentType: 'text/html', body: '<p>' }).join(),
    ).toMatch(/content type/);
  });

  it("lets the router's 404 for a path outside the document through only with the error body", () => {
    expect(
      v.problems({
        method: 'GET',
        path: '/nowhere',
        status: 404,
        contentType: json,
        body: { error: 'Cannot GET /nowhere' },
      }),
    ).toEqual([]);
    expect(
      v.problems({ method: 'GET', path: '/nowhere', status: 404, contentType: json, body: { message: 'x' } }),
    ).not.toEqual([]);
  });

  it('compiles every response schema of the document', () => {
    expect(v.compileAll()).toBe(3);
  });
});
