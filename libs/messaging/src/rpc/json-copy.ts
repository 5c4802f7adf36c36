/** Deeper than this is taken for a cycle (JSON.stringify would throw on one, or overflow the stack). */
const MAX_DEPTH = 512;

/**
 * What `JSON.parse(JSON.stringify(value))` gives, without the text in between: the copy a value
 * makes when it crosses the bus. toJSON is applied (Dates become ISO strings); boxed primitives
 * are unboxed; only own enumerable string keys are kept; undefined, functions and symbols are
 * dropped from objects and become null in arrays; NaN and the infinities become null; -0 becomes 0.
 * Throws a TypeError where JSON.stringify would (a BigInt, a cycle).
 *
 * The in-process RPC copies its request and reply with it, so a handler and its caller share no
 * object and see what they would see over NATS (decision 0006), at a fraction of the cost of a
 * JSON round trip (decision 0300).
 */
export function jsonCopy(value: unknown): unknown {
  return copy(value, '', 0);
}

function copy(value: unknown, key: string, depth: number): unknown {
  if (typeof value === 'object' && value !== null) {
    const json = (value as { toJSON?: unknown }).toJSON;
    if (typeof json === 'function') return copy(json.call(value, key), key, depth);
    if (depth >= MAX_DEPTH)
      throw new TypeError(`Converting circular structure to JSON (or nested over ${MAX_DEPTH} levels)`);
    if (value instanceof Number || value instanceof String || value instanceof Boolean || value instanceof BigInt)
      return copy(value.valueOf(), key, depth);
    if (Array.isArray(value)) {
      const out: unknown[] = new Array(value.length);
      for (let i = 0; i < value.length; i++) out[i] = copy(value[i], String(i), depth + 1) ?? null;
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const k in value) {
      if (!Object.prototype.hasOwnProperty.call(value, k)) continue;
      const v = copy((value as Record<string, unknown>)[k], k, depth + 1);
      if (v === undefined) continue;
      // JSON.parse makes "__proto__" an own field; an assignment would set the copy's prototype.
      if (k === '__proto__')
        Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      else out[k] = v;
    }
    return out;
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value + 0 : null; // + 0: -0 is 0 in JSON
    case 'bigint': {
      const json = (BigInt.prototype as { toJSON?: unknown }).toJSON; // JSON.stringify looks there too
      if (typeof json === 'function') return copy(json.call(value, key), key, depth);
      throw new TypeError('Do not know how to serialize a BigInt');
    }
    default:
      return value === null ? null : undefined; // undefined, functions and symbols
  }
}
