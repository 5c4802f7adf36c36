import { ScimInvalidPathError, ScimInvalidValueError, ScimNoTargetError } from '@hub/organizations-contract';

export type ScimOpName = 'add' | 'replace' | 'remove';

/** `attr`, `attr.sub`, `attr[field eq "v"]` or `attr[field eq "v"].sub`, names lower-cased. */
export interface ScimPath {
  attr: string;
  sub?: string;
  where?: { field: string; value: string | boolean };
}

export interface ScimOp {
  op: ScimOpName;
  /** null: the value is an object of attributes (a PATCH without path). */
  path: ScimPath | null;
  value: unknown;
}

const MAX_OPERATIONS = 1000;
const CORE_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/i;
const PATH =
  /^([A-Za-z][\w:.-]*?)(?:\[\s*([A-Za-z][\w.]*)\s+eq\s+("(?:[^"\\]|\\.)*"|true|false)\s*\])?(?:\.([A-Za-z]\w*))?$/i;

export function parseScimPath(raw: string): ScimPath {
  const text = raw.trim().replace(CORE_PREFIX, '');
  // Extension attributes (urn:…:User:department) are kept whole: no resource here has them, so they are ignored.
  if (/^urn:/i.test(text)) return { attr: text.toLowerCase() };
  const m = PATH.exec(text);
  if (!m) throw new ScimInvalidPathError(raw);
  const [, attr = '', field, literal, sub] = m;
  const dotted = !field && attr.includes('.') ? attr.split('.') : null;
  if (dotted && dotted.length !== 2) throw new ScimInvalidPathError(raw);
  return {
    attr: (dotted ? (dotted[0] ?? '') : attr).toLowerCase(),
    ...(dotted ? { sub: (dotted[1] ?? '').toLowerCase() } : sub ? { sub: sub.toLowerCase() } : {}),
    ...(field && literal
      ? {
          where: {
            field: field.toLowerCase(),
            value: literal.startsWith('"') ? jsonString(literal, raw) : literal.toLowerCase() === 'true',
          },
        }
      : {}),
  };
}

/** The quoted value of a path filter; `"\q"` or a raw control character is a bad path, not a 500. */
function jsonString(literal: string, raw: string): string {
  try {
    return JSON.parse(literal) as string;
  } catch {
    throw new ScimInvalidPathError(raw);
  }
}

/**
 * The Operations of a PatchOp message (RFC 7644 3.5.2) as identity providers send them: op in
 * any case (Okta and Entra send `Replace`), a path or an object of attributes as the value.
 */
export function parseScimPatch(patch: Record<string, unknown>): ScimOp[] {
  const key = Object.keys(patch).find((k) => k.toLowerCase() === 'operations');
  const ops = key ? patch[key] : undefined;
  if (!Array.isArray(ops) || ops.length === 0)
    throw new ScimInvalidValueError('Operations must be a non-empty list of PATCH operations');
  if (ops.length > MAX_OPERATIONS)
    throw new ScimInvalidValueError(`Operations must hold at most ${MAX_OPERATIONS} operations`);
  return ops.map((raw, i) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw new ScimInvalidValueError(`Operations[${i}] must be an object`);
    const o = lowerKeys(raw as Record<string, unknown>);
    const op = typeof o['op'] === 'string' ? o['op'].toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw new ScimInvalidValueError(`Operations[${i}].op must be add, replace or remove`);
    const path = typeof o['path'] === 'string' && o['path'].trim() !== '' ? parseScimPath(o['path']) : null;
    if (!path && op === 'remove') throw new ScimNoTargetError(`Operations[${i}]: remove needs a path`);
    if (!path && (typeof o['value'] !== 'object' || o['value'] === null || Array.isArray(o['value']))) {
      throw new ScimInvalidValueError(`Operations[${i}]: without a path the value must be an object of attributes`);
    }
    return { op, path, value: o['value'] };
  });
}

/** A PATCH without path, one op per attribute of its value (keys may be paths: Entra sends `name.givenName`). */
export function expandScimOp(op: ScimOp): { op: ScimOpName; path: ScimPath; value: unknown }[] {
  if (op.path) return [{ op: op.op, path: op.path, value: op.value }];
  return Object.entries(op.value as Record<string, unknown>).map(([k, value]) => ({
    op: op.op,
    path: parseScimPath(k),
    value,
  }));
}

/** SCIM attribute names are case-insensitive: a copy with lower-case keys. */
export function lowerKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(CORE_PREFIX, '').toLowerCase(), v]));
}

/** A boolean as Entra sends it too: true/false or the strings "True"/"False". */
export function scimBoolean(value: unknown, name: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw new ScimInvalidValueError(`${name} must be a boolean`);
}
