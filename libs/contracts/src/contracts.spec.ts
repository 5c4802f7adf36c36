import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AdminCreateOrganizationDto, OrgRevokeTokenDto, RevokeCredentialsDto } from './index';
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
  it('revoke: 1..1000 credentials of 1..200 characters', () => {
    expect(problems(RevokeCredentialsDto, { credentials: ['hf_x'] })).toEqual([]);
    expect(problems(RevokeCredentialsDto, { credentials: Array(1000).fill('a') })).toEqual([]);
    expect(problems(RevokeCredentialsDto, { credentials: Array(1001).fill('a') })).toContain(
      'credentials must contain at most 1000 items',
    );
    expect(problems(RevokeCredentialsDto, { credentials: ['x'.repeat(201)] })).toContain(
      'each item of credentials must be 1..200 characters long',
    );
    expect(problems(RevokeCredentialsDto, { credentials: [''] })).toContain(
      'each item of credentials must be 1..200 characters long',
    );
    expect(problems(RevokeCredentialsDto, { credentials: [] })).toContain('credentials must contain at least 1 item');
    expect(problems(RevokeCredentialsDto, { credentials: [3] })).toContain(
      'credentials must be an array of strings; item 0 is number',
    );
    // Issue 7, finding 10: the message names the real problem, whatever the rule order.
    expect(problems(RevokeCredentialsDto, { credentials: 'hf_x' })).toEqual([
      'credentials must be an array of strings',
    ]);
  });

  it('org revoke: a token with the fixed prefix', () => {
    expect(problems(OrgRevokeTokenDto, { token: 'hf_anything' })).toEqual([]);
    expect(problems(OrgRevokeTokenDto, { token: 'ghp_x' })).toContain('token must start with "hf_"');
  });

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
