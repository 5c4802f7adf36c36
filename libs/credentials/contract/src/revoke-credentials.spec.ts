import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { OrgRevokeTokenDto, RevokeCredentialsDto } from './revoke-credentials.dto';

function problems<T extends object>(cls: new () => T, plain: object): string[] {
  return validateSync(plainToInstance(cls, plain)).flatMap((e) => Object.values(e.constraints ?? {}));
}

describe('credentials request DTOs keep the spec bounds', () => {
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
});
