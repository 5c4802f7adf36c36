import { jsonNestsDeeperThan } from './json-body';

describe('jsonNestsDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(jsonNestsDeeperThan('[[[]]]', 3)).toBe(false);
    expect(jsonNestsDeeperThan('[[[[]]]]', 3)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":"[[[[[[\\"[[["}', 1)).toBe(false);
    expect(jsonNestsDeeperThan('['.repeat(2000) + ']'.repeat(2000), 32)).toBe(true);
  });
});
