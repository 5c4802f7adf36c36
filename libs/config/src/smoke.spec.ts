import { IsString, validateSync } from 'class-validator';
class A { @IsString() a!: string; }
it('keeps decorator metadata under swc', () => {
  const x = Object.assign(new A(), { a: 1 });
  expect(validateSync(x)).toHaveLength(1);
});
