import { closeSchemas, withEdgeResponses } from './edge-responses';
import { toOpenApi31 } from './openapi';

describe('toOpenApi31', () => {
  it("rewrites 3.0's nullable into 3.1 type arrays, everywhere", () => {
    const doc = {
      components: {
        schemas: {
          A: {
            type: 'object',
            properties: { d: { type: 'string', nullable: true }, r: { $ref: '#/x', nullable: true } },
          },
        },
      },
    };
    expect(toOpenApi31(doc)).toEqual({
      components: {
        schemas: {
          A: {
            type: 'object',
            properties: { d: { type: ['string', 'null'] }, r: { anyOf: [{ $ref: '#/x' }, { type: 'null' }] } },
          },
        },
      },
    });
  });
});

describe('withEdgeResponses and closeSchemas', () => {
  const error = { $ref: '#/components/schemas/ErrorBody' };
  const doc = () => ({
    paths: {
      '/api/credentials/revoke': {
        post: {
          security: [],
          requestBody: {},
          responses: { '202': { description: 'ok' }, '400': { description: 'bad' } },
        },
      },
      '/api/organizations/{name}/members': { get: { responses: { '200': { description: 'ok' } } } },
    },
    components: { schemas: { WhoAmI: { type: 'object' }, AdminCreateUserDto: { type: 'object' } } },
  });

  it('adds what the edge can answer, by kind of operation, and gives every error the error body', () => {
    const d = withEdgeResponses(doc());
    const revoke = d.paths['/api/credentials/revoke'].post.responses as Record<string, { content?: unknown }>;
    expect(Object.keys(revoke).sort()).toEqual(['202', '400', '408', '413', '415', '429', '431', '500', '503', '504']);
    expect(revoke['400']?.content).toEqual({ 'application/json': { schema: error } });
    const members = d.paths['/api/organizations/{name}/members'].get.responses;
    expect(Object.keys(members).sort()).toEqual(['200', '400', '401', '414', '429', '431', '500', '503', '504']);
  });

  it('closes only the named schemas', () => {
    const d = closeSchemas(doc(), new Set(['WhoAmI']));
    expect(d.components.schemas).toEqual({
      WhoAmI: { type: 'object', additionalProperties: false },
      AdminCreateUserDto: { type: 'object' },
    });
  });
});
