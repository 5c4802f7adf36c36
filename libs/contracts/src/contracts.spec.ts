import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AdminCreateOrganizationDto } from './index';
import { AUDIT_EVENT_TYPES, JOB_FLAVORS, JOB_STAGES, ORG_PLANS, planAtLeast, REPO_TYPES } from './enums';

function problems<T extends object>(cls: new () => T, plain: object): string[] {
  return validateSync(plainToInstance(cls, plain)).flatMap((e) => Object.values(e.constraints ?? {}));
}

describe('spec enums', () => {
  it('hold exactly the spec values', () => {
    expect(REPO_TYPES).toEqual(['dataset', 'model', 'space', 'bucket', 'kernel']);
    expect(JOB_STAGES).toEqual(['COMPLETED', 'CANCELED', 'ERROR', 'DELETED', 'RUNNING', 'SCHEDULING']);
    expect(JOB_FLAVORS).toHaveLength(29);
    expect(AUDIT_EVENT_TYPES).toHaveLength(119);
    expect(new Set(AUDIT_EVENT_TYPES).size).toBe(119);
  });

  it('order plans so gates read "this plan or higher"', () => {
    expect(ORG_PLANS).toEqual(['free', 'team', 'enterprise', 'enterprise_plus']);
    expect(planAtLeast('enterprise_plus', 'enterprise')).toBe(true);
    expect(planAtLeast('team', 'enterprise')).toBe(false);
  });
});

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
