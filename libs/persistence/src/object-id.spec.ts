import { newObjectId } from './object-id';

describe('newObjectId', () => {
  it('is 24 lowercase hex characters, unique, and sorts by time', () => {
    const ids = Array.from({ length: 1000 }, () => newObjectId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(1000);
    expect(newObjectId(new Date('2020-01-01')) < newObjectId(new Date('2030-01-01'))).toBe(true);
  });
});
