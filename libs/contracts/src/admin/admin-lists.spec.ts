import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  ADMIN_LIST_DEFAULT_PAGE,
  AdminNamesQueryDto,
  adminPage,
  adminPageSize,
  AdminTokensQueryDto,
} from './admin-lists.dto';

const errorsOf = (cls: typeof AdminNamesQueryDto | typeof AdminTokensQueryDto, query: object): string[] =>
  validateSync(plainToInstance(cls, query), { whitelist: true, stopAtFirstError: true }).flatMap((e) =>
    Object.values(e.constraints ?? {}),
  );

describe('admin lists', () => {
  it('makes a page from limit + 1 rows: the extra row only says another page follows, from the last key', () => {
    const key = (n: number): string => `k${n}`;
    expect(adminPage([1, 2, 3], 2, key)).toEqual({ items: [1, 2], next: 'k2' });
    expect(adminPage([1, 2], 2, key)).toEqual({ items: [1, 2] });
    expect(adminPage([], 2, key)).toEqual({ items: [] });
    expect(adminPageSize({})).toBe(ADMIN_LIST_DEFAULT_PAGE);
    expect(adminPageSize({ limit: 7 })).toBe(7);
  });

  it('names a bad limit, search or cursor in the first rule it breaks, as a query string gives them', () => {
    expect(errorsOf(AdminNamesQueryDto, { limit: '20', search: 'al', cursor: 'alice' })).toEqual([]);
    expect(errorsOf(AdminNamesQueryDto, { limit: '0' })).toEqual(['limit must be at least 1']);
    expect(errorsOf(AdminNamesQueryDto, { limit: '101' })).toEqual(['limit must be at most 100']);
    expect(errorsOf(AdminNamesQueryDto, { limit: 'ten' })).toEqual(['limit must be an integer']);
    expect(errorsOf(AdminNamesQueryDto, { search: '' })).toEqual(['search must be 1..100 characters long']);
    expect(errorsOf(AdminNamesQueryDto, { cursor: '-x-' })).toEqual([
      'cursor must be the one given in the Link header',
    ]);
    expect(errorsOf(AdminTokensQueryDto, { cursor: 'alice' })).toEqual([
      'cursor must be the one given in the Link header',
    ]);
    expect(errorsOf(AdminTokensQueryDto, { cursor: '0123456789abcdef01234567' })).toEqual([]);
  });
});
