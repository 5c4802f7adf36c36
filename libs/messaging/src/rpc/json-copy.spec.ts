import { jsonCopy } from './json-copy';

const viaJson = (value: unknown): unknown => {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
};

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
  get sum(): number {
    return this.x + this.y;
  }
}

class Money {
  constructor(private readonly cents: number) {}
  toJSON(key: string): string {
    return `${key}:${this.cents / 100}`;
  }
}

describe('jsonCopy', () => {
  it.each<[string, unknown]>([
    ['primitives', ['a', 1, 1.5, true, false, null]],
    ['a string, a number, null at the top', 'x'],
    ['undefined at the top', undefined],
    ['non-finite numbers and -0', { a: NaN, b: Infinity, c: -Infinity, d: -0, e: [NaN, -0] }],
    [
      'undefined, functions and symbols in objects and arrays',
      { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1, Symbol('t')] },
    ],
    ['Dates, valid and not', { at: new Date(0), bad: new Date(NaN), list: [new Date(86_400_000)] }],
    ['class instances (own fields only, no getters)', { p: new Point(1, 2), list: [new Point(3, 4)] }],
    ['toJSON with its key', { price: new Money(250), list: [new Money(100)] }],
    ['boxed primitives', { s: Object('x'), n: Object(2), b: Object(false) }],
    ['Maps, Sets and symbol keys', { m: new Map([[1, 2]]), s: new Set([1]), [Symbol('k')]: 1, k: 2 }],
    ['Buffers and typed arrays', { b: Buffer.from('hi'), u: new Uint8Array([1, 2]) }],
    [
      'prototype-less objects and inherited fields',
      { o: Object.assign(Object.create(null), { a: 1 }), i: Object.create({ inherited: 1 }) },
    ],
    ['integer-like keys in JSON order', { b: 1, 2: 'two', a: 2, 1: 'one' }],
    ['nested arrays and objects', { a: [[1, [2, { b: [3] }]], { c: { d: { e: 'f' } } }] }],
  ])('gives what a JSON round trip gives: %s', (_, value) => {
    const copied = jsonCopy(value);
    expect(copied).toStrictEqual(viaJson(value));
    expect(JSON.stringify(copied)).toBe(JSON.stringify(value)); // key order too
  });

  it('keeps a parsed "__proto__" field as an own field, as JSON.parse does, never as a prototype', () => {
    const input = JSON.parse('{"a":1,"__proto__":{"polluted":true},"inner":{"__proto__":[1]}}') as Record<
      string,
      unknown
    >;
    const copied = jsonCopy(input) as Record<string, unknown>;
    expect(JSON.stringify(copied)).toBe(JSON.stringify(input));
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(copied['polluted']).toBeUndefined();
    expect(Object.getOwnPropertyNames(copied)).toEqual(['a', '__proto__', 'inner']);
  });

  it('shares no object with its input', () => {
    const input = { list: [{ a: 1 }], inner: { b: 2 } };
    const copied = jsonCopy(input) as typeof input;
    copied.list[0].a = 9;
    copied.inner.b = 9;
    expect(input).toEqual({ list: [{ a: 1 }], inner: { b: 2 } });
  });

  it('throws a TypeError where JSON.stringify does: a BigInt, a cycle', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle['self'] = cycle;
    for (const bad of [{ n: 1n }, [Object(2n)], cycle]) {
      expect(() => JSON.stringify(bad)).toThrow(TypeError);
      expect(() => jsonCopy(bad)).toThrow(TypeError);
    }
  });
});
