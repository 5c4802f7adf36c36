import fc from 'fast-check';
import { findBadText } from './text-guard';

describe('findBadText', () => {
  it('names the path of the first string holding a NUL', () => {
    expect(findBadText({ command: ['ls', 'a\0b'] })).toBe('command[1] must not contain a NUL character');
    expect(findBadText({ environment: { FOO: 'x\0' } })).toBe('environment.FOO must not contain a NUL character');
    expect(findBadText({ watched: [{ type: 'model', name: 'a/\0' }] })).toBe(
      'watched[0].name must not contain a NUL character',
    );
    expect(findBadText({ environment: { 'my key': '\0' } })).toBe(
      'environment["my key"] must not contain a NUL character',
    );
    expect(findBadText({ search: '\0' })).toBe('search must not contain a NUL character');
    expect(findBadText('\0')).toBe('Request body must not contain a NUL character');
  });

  it('names keys holding a NUL', () => {
    expect(findBadText({ environment: { 'A\0': 'x' } })).toBe('A key in environment must not contain a NUL character');
    expect(findBadText({ '\0': 1 })).toBe('A key of the request body must not contain a NUL character');
  });

  it('refuses unpaired surrogates and accepts pairs', () => {
    expect(findBadText({ spaceId: '\ud800' })).toBe(
      'spaceId must not contain an unpaired UTF-16 surrogate (not valid Unicode)',
    );
    expect(findBadText({ spaceId: 'a\udc00b' })).toMatch(/^spaceId must not contain an unpaired/);
    expect(findBadText({ spaceId: '\udc00\ud800' })).toMatch(/^spaceId must not contain an unpaired/);
    expect(findBadText({ name: 'emoji 😀 ok', n: 1, b: true, z: null })).toBeNull();
  });

  it('finds something exactly when some string or key holds a NUL or is not well-formed UTF-16', () => {
    // The oracle: UTF-8 encoding replaces a lone surrogate, so a round trip changes exactly those strings.
    const wellFormed = (s: string): boolean => new TextDecoder().decode(new TextEncoder().encode(s)) === s;
    const bad = (s: string): boolean => s.includes('\0') || !wellFormed(s);
    const strings = (v: unknown): string[] =>
      typeof v === 'string'
        ? [v]
        : Array.isArray(v)
          ? v.flatMap(strings)
          : typeof v === 'object' && v !== null
            ? Object.entries(v).flatMap(([k, x]) => [k, ...strings(x)])
            : [];
    const text = fc.string({ unit: 'binary', maxLength: 6 });
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(text, tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (v) => {
        expect(findBadText(v) !== null).toBe(strings(v).some(bad));
      }),
      { numRuns: 500 },
    );
  });
});
