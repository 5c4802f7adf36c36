import { bodyText, charsetOf, jsonNestsDeeperThan } from './json-body';

describe('jsonNestsDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(jsonNestsDeeperThan('[[[]]]', 3)).toBe(false);
    expect(jsonNestsDeeperThan('[[[[]]]]', 3)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":"[[[[[[\\"[[["}', 1)).toBe(false);
    expect(jsonNestsDeeperThan('['.repeat(2000) + ']'.repeat(2000), 32)).toBe(true);
  });
});

describe('bodyText', () => {
  it('reads the charset parameter, case-insensitive and unquoted', () => {
    expect(charsetOf('application/json')).toBeUndefined();
    expect(charsetOf('application/json; charset=UTF-8')).toBe('utf-8');
    expect(charsetOf('application/json;charset="utf-16"')).toBe('utf-16');
    expect(charsetOf(undefined)).toBeUndefined();
  });

  it('takes UTF-8, declared or not, and names what else is wrong', () => {
    const json = Buffer.from('{"name":"é😀"}');
    expect(bodyText('application/json', json)).toBe('{"name":"é😀"}');
    expect(bodyText('application/json; charset=UTF-8', json)).toBe('{"name":"é😀"}');
    expect(bodyText('application/json; charset=utf8', json)).toBe('{"name":"é😀"}');
    expect(() => bodyText('application/json; charset=utf-16', Buffer.from('{}', 'utf16le'))).toThrow(
      expect.objectContaining({
        statusCode: 415,
        message: 'Request body charset "utf-16" is not supported: send JSON in UTF-8',
      }),
    );
    for (const bytes of [
      [0x7b, 0xff, 0x7d],
      [0x22, 0xc3, 0x22],
      [0xed, 0xa0, 0x80],
    ]) {
      expect(() => bodyText('application/json', Buffer.from(bytes))).toThrow(
        expect.objectContaining({ statusCode: 400, message: 'Request body is not valid UTF-8 JSON' }),
      );
    }
  });
});
