import { ScimInvalidFilterError } from '@hub/contracts';

/** One `attribute eq value` term of a filter; the attribute as the resource's column knows it. */
export interface ScimTerm {
  attribute: string;
  value: string | boolean | null;
}

const TERM = /^\s*([A-Za-z][\w.:-]*)\s+(eq)\s+("(?:[^"\\]|\\.)*"|true|false|null)\s*/i;
const AND = /^and\s+/i;
const CORE_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/i;

/**
 * The filter subset identity providers send (RFC 7644 3.4.2.2): `attr eq "value"` terms joined by
 * `and`; attribute names case-insensitive, with or without the core schema's URN. `attributes`
 * maps each supported name (lower case) to what the caller filters on; anything else is a 400
 * invalidFilter naming the problem.
 */
export function parseScimFilter(filter: string | undefined, attributes: Readonly<Record<string, string>>): ScimTerm[] {
  if (filter === undefined || filter.trim() === '') return [];
  const terms: ScimTerm[] = [];
  let rest = filter.trim();
  for (;;) {
    const m = TERM.exec(rest);
    if (!m) throw new ScimInvalidFilterError(`Unsupported filter near ${JSON.stringify(rest.slice(0, 60))}: the hub supports attribute eq "value" terms joined by and`);
    const [all, name = '', , raw = ''] = m;
    const key = name.replace(CORE_PREFIX, '').toLowerCase();
    // Own keys only: `constructor eq "x"` must not find Object.prototype.constructor.
    const attribute = Object.hasOwn(attributes, key) ? attributes[key] : undefined;
    if (!attribute) throw new ScimInvalidFilterError(`Filtering on ${name} is not supported (supported: ${Object.keys(attributes).join(', ')})`);
    terms.push({ attribute, value: literal(raw) });
    rest = rest.slice(all.length);
    if (rest === '') return terms;
    const and = AND.exec(rest);
    if (!and) throw new ScimInvalidFilterError(`Unsupported filter near ${JSON.stringify(rest.slice(0, 60))}: only and joins terms`);
    rest = rest.slice(and[0].length);
  }
}

function literal(raw: string): string | boolean | null {
  if (raw.startsWith('"')) {
    try {
      return JSON.parse(raw) as string;
    } catch {
      throw new ScimInvalidFilterError(`The filter value ${raw.slice(0, 60)} is not a valid string`);
    }
  }
  const word = raw.toLowerCase();
  return word === 'null' ? null : word === 'true';
}
