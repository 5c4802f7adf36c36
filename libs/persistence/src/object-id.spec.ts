import { newObjectId, newRandomId } from './object-id';

describe('newObjectId', () => {
  it('is 24 lowercase hex characters, unique, and sorts by time', () => {
    const ids = Array.from({ length: 1000 }, () => newObjectId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(1000);
    expect(newObjectId(new Date('2020-01-01')) < newObjectId(new Date('2030-01-01'))).toBe(true);
  });
});

describe('newRandomId', () => {
  it('is 24 lowercase hex characters with no shared time or counter part between neighbours', () => {
    const ids = Array.from({ length: 1000 }, () => newRandomId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(1000);
    // newObjectId neighbours share their first 18 characters (time and process); random ones almost never share 4.
    const sharedPrefix = ids.slice(1).filter((id, i) => id.slice(0, 4) === ids[i]?.slice(0, 4)).length;
    expect(sharedPrefix).toBeLessThan(5);
  });
});
