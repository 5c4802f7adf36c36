import { IsInt, Matches, validateSync } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache';

const messages = (o: object): string[] =>
  validateSync(o, { forbidUnknownValues: false }).flatMap((e) => Object.values(e.constraints ?? {}));

describe('cacheValidationMetadata', () => {
  beforeAll(() => cacheValidationMetadata());

  it('validates as class-validator does, repeatedly', () => {
    class Name {
      @Matches(/^[a-z]+$/, { message: 'name must be lower case' })
      name!: string;
    }
    for (let i = 0; i < 3; i++) {
      expect(messages(Object.assign(new Name(), { name: 'ok' }))).toEqual([]);
      expect(messages(Object.assign(new Name(), { name: 'NO' }))).toEqual(['name must be lower case']);
    }
  });

  it('sees a rule added after the class was first validated', () => {
    class Late {
      count!: unknown;
    }
    expect(messages(Object.assign(new Late(), { count: 'x' }))).toEqual([]);
    IsInt({ message: 'count must be an integer' })(Late.prototype, 'count');
    expect(messages(Object.assign(new Late(), { count: 'x' }))).toEqual(['count must be an integer']);
  });

  it('gives a subclass declared later its parent rules and its own', () => {
    class Parent {
      @Matches(/^p/, { message: 'a must start with p' })
      a!: string;
    }
    expect(messages(Object.assign(new Parent(), { a: 'x' }))).toEqual(['a must start with p']);
    class Child extends Parent {
      @IsInt({ message: 'b must be an integer' })
      b!: unknown;
    }
    expect(messages(Object.assign(new Child(), { a: 'x', b: 'y' })).sort()).toEqual([
      'a must start with p',
      'b must be an integer',
    ]);
    expect(messages(Object.assign(new Parent(), { a: 'x', b: 'y' }))).toEqual(['a must start with p']);
  });

  it('is idempotent', () => {
    cacheValidationMetadata();
    class Twice {
      @IsInt({ message: 'n must be an integer' })
      n!: unknown;
    }
    expect(messages(Object.assign(new Twice(), { n: 1.5 }))).toEqual(['n must be an integer']);
  });
});
