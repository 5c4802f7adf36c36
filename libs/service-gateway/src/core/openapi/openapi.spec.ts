import { toOpenApi31 } from './openapi';

describe('toOpenApi31', () => {
  it("rewrites 3.0's nullable into 3.1 type arrays, everywhere", () => {
    const doc = {
      components: {
        schemas: {
          A: { type: 'object', properties: { d: { type: 'string', nullable: true }, r: { $ref: '#/x', nullable: true } } },
        },
      },
    };
    expect(toOpenApi31(doc)).toEqual({
      components: {
        schemas: {
          A: { type: 'object', properties: { d: { type: ['string', 'null'] }, r: { anyOf: [{ $ref: '#/x' }, { type: 'null' }] } } },
        },
      },
    });
  });
});
