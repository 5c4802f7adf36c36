import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AdminCreateOrganizationDto } from './admin.dto';

function problems<T extends object>(cls: new () => T, plain: object): string[] {
  return validateSync(plainToInstance(cls, plain)).flatMap((e) => Object.values(e.constraints ?? {}));
}

describe('request DTOs keep the spec bounds', () => {
  it('admin organization: a known plan and at least one admin', () => {
    expect(problems(AdminCreateOrganizationDto, { name: 'acme', plan: 'team', admins: ['alice'] })).toEqual([]);
    expect(problems(AdminCreateOrganizationDto, { name: 'acme', plan: 'gold', admins: [] })).toEqual(
      expect.arrayContaining([
        'plan must be one of free, team, enterprise, enterprise_plus',
        'admins must contain at least 1 user',
      ]),
    );
  });
});
