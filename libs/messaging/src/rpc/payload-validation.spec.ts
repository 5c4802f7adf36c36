import { Transform, Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, ValidateNested } from 'class-validator';
import { BadRequestError } from '@hub/contracts';
import { validatePayload } from './payload-validation';

class Plain {
  @IsString()
  name!: string;

  @IsOptional()
  @IsInt()
  @Max(10)
  limit?: number;

  tag = 'default';
}

class Inner {
  @IsInt()
  n!: number;

  twice(): number {
    return this.n * 2;
  }
}

class Nested {
  @ValidateNested()
  @Type(() => Inner)
  inner!: Inner;

  @IsString()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  trimmed!: string;
}

describe('validatePayload', () => {
  it('copies a payload onto an instance of its class, dropping fields without rules (defaults too)', () => {
    const dto = validatePayload(Plain, { name: 'a', limit: 3, extra: 'x' });
    expect(dto).toBeInstanceOf(Plain);
    expect({ ...dto }).toEqual({ name: 'a', limit: 3 });
  });

  it('names the field that breaks a rule', () => {
    expect(() => validatePayload(Plain, { name: 'a', limit: 11 })).toThrow(
      new BadRequestError('limit must not be greater than 10'),
    );
    expect(() => validatePayload(Plain, { limit: 1 })).toThrow(/name must be a string/);
    expect(() => validatePayload(Plain, [])).toThrow(/payload must be an object/);
  });

  it('never lets a __proto__ field become the instance prototype', () => {
    const data = JSON.parse('{"name":"a","__proto__":{"polluted":true,"constructor":null}}') as object;
    const dto = validatePayload(Plain, data);
    expect(Object.getPrototypeOf(dto)).toBe(Plain.prototype);
    expect((dto as unknown as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('runs class-transformer for a class that asks for it (@Type, @Transform)', () => {
    const dto = validatePayload(Nested, { inner: { n: 2 }, trimmed: '  x  ' });
    expect(dto.inner).toBeInstanceOf(Inner);
    expect(dto.inner.twice()).toBe(4);
    expect(dto.trimmed).toBe('x');
    expect(() => validatePayload(Nested, { inner: { n: 'two' }, trimmed: 'x' })).toThrow(/inner\.n must be an integer/);
  });
});
