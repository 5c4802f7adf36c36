import { QueryFailedError } from 'typeorm';
import { isUniqueViolation, uniqueViolation } from './unique-violation';

function failed(driverError: Record<string, unknown>): QueryFailedError {
  return new QueryFailedError('INSERT …', [], Object.assign(new Error('db error'), driverError));
}

describe('uniqueViolation', () => {
  it('names the constraint of a 23505', () => {
    expect(uniqueViolation(failed({ code: '23505', constraint: 'users_email_lower' }))).toEqual({
      constraint: 'users_email_lower',
    });
    expect(uniqueViolation(failed({ code: '23505' }))).toEqual({ constraint: '' });
  });

  it('is null for other errors and non-errors', () => {
    expect(uniqueViolation(failed({ code: '23503', constraint: 'fk' }))).toBeNull();
    expect(uniqueViolation(new Error('23505'))).toBeNull();
    expect(uniqueViolation(undefined)).toBeNull();
    expect(uniqueViolation(null)).toBeNull();
    expect(isUniqueViolation(failed({ code: '23505' }))).toBe(true);
    expect(isUniqueViolation('23505')).toBe(false);
  });
});
