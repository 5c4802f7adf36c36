import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Min,
  ValidateNested,
  ValidateBy,
} from 'class-validator';
import { classSchema } from './class-schema';

class Leaf {
  @IsString()
  @Length(1, 10)
  name!: string;
}

class Root {
  @Matches(/^[0-9a-f]{24}$/)
  id!: string;

  @IsOptional()
  @IsIn(['a', 'b'])
  kind?: 'a' | 'b';

  @IsInt()
  @Min(0)
  count!: number;

  @IsArray()
  @ArrayMaxSize(3)
  @ValidateNested({ each: true })
  @Type(() => Leaf)
  leaves!: Leaf[];

  @IsOptional()
  @IsArray()
  @Matches(/^x/, { each: true })
  tags?: string[];

  @ValidateBy({ name: 'isOdd', validator: { validate: (v: unknown) => Number(v) % 2 === 1 } })
  odd!: number;
}

describe('classSchema', () => {
  it('writes what the class-validator rules check, optional members nullable, nested classes inlined', () => {
    expect(classSchema(Root)).toEqual({
      type: 'object',
      title: 'Root',
      properties: {
        id: { type: 'string', pattern: '^[0-9a-f]{24}$' },
        kind: { enum: ['a', 'b', null] },
        count: { type: 'integer', minimum: 0 },
        leaves: {
          type: 'array',
          maxItems: 3,
          items: {
            type: 'object',
            title: 'Leaf',
            properties: { name: { type: 'string', minLength: 1, maxLength: 10 } },
            required: ['name'],
          },
        },
        tags: { type: ['array', 'null'], items: { type: 'string', pattern: '^x' } },
        // A rule it does not know leaves the member open, and says so.
        odd: { 'x-validation': ['isOdd'] },
      },
      required: ['id', 'count', 'leaves', 'odd'],
    });
  });
});
