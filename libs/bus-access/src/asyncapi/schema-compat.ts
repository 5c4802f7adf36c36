import { type JsonSchema } from '@hub/contracts';

/**
 * Whether every message valid under the new payload schema is still valid under the old one,
 * i.e. whether a subscriber built against the old document keeps working (decision 0701). Checked
 * conservatively: what cannot be shown to be narrower (a changed pattern) counts as breaking.
 * Enum values may be added (subscribers must accept values they do not know); extra members
 * always may (schemas are open).
 */
export function schemaBreaks(previous: JsonSchema, current: JsonSchema, path = '$'): string[] {
  const prevAll = previous['allOf'] as JsonSchema[] | undefined;
  if (prevAll) return prevAll.flatMap((p) => schemaBreaks(p, current, path));
  const curAll = current['allOf'] as JsonSchema[] | undefined;
  if (curAll) {
    const results = curAll.map((c) => schemaBreaks(previous, c, path));
    return results.some((r) => r.length === 0) ? [] : (results[0] ?? []);
  }
  const out: string[] = [];
  const prevTypes = typesOf(previous);
  const curTypes = typesOf(current);
  if (prevTypes) {
    const widened = curTypes
      ? curTypes.filter((t) => !prevTypes.includes(t) && !(t === 'integer' && prevTypes.includes('number')))
      : ['any'];
    if (widened.length > 0) out.push(`${path}: type ${describe(prevTypes)} became ${describe(curTypes ?? ['any'])}`);
  }
  for (const key of ['pattern', 'format'] as const) {
    if (previous[key] !== undefined && previous[key] !== current[key])
      out.push(`${path}: ${key} changed from ${String(previous[key])} to ${String(current[key] ?? 'none')}`);
  }
  for (const key of ['minLength', 'minimum', 'minItems'] as const) {
    const p = previous[key] as number | undefined;
    const c = current[key] as number | undefined;
    if (p !== undefined && (c === undefined || c < p)) out.push(`${path}: ${key} lowered from ${p} to ${c ?? 'none'}`);
  }
  for (const key of ['maxLength', 'maximum', 'maxItems'] as const) {
    const p = previous[key] as number | undefined;
    const c = current[key] as number | undefined;
    if (p !== undefined && (c === undefined || c > p)) out.push(`${path}: ${key} raised from ${p} to ${c ?? 'none'}`);
  }
  if (previous['additionalProperties'] === false && current['additionalProperties'] !== false)
    out.push(`${path}: now allows extra members`);
  const prevRequired = (previous['required'] as string[] | undefined) ?? [];
  const curRequired = new Set((current['required'] as string[] | undefined) ?? []);
  for (const name of prevRequired) {
    if (!curRequired.has(name)) out.push(`${path}.${name}: was required, is no longer (removed or made optional)`);
  }
  const prevProps = (previous['properties'] as Record<string, JsonSchema> | undefined) ?? {};
  const curProps = (current['properties'] as Record<string, JsonSchema> | undefined) ?? {};
  for (const [name, schema] of Object.entries(prevProps)) {
    if (curProps[name]) out.push(...schemaBreaks(schema, curProps[name], `${path}.${name}`));
  }
  if (previous['items'] && current['items'])
    out.push(...schemaBreaks(previous['items'] as JsonSchema, current['items'] as JsonSchema, `${path}[]`));
  return out;
}

function typesOf(schema: JsonSchema): string[] | undefined {
  const t = schema['type'];
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t as string[];
  if (Array.isArray(schema['enum']))
    return [...new Set((schema['enum'] as unknown[]).map((v) => (v === null ? 'null' : typeof v)))];
  return undefined;
}

function describe(types: string[]): string {
  return types.join('|');
}

interface DocumentLike {
  channels: Record<
    string,
    {
      address: string;
      messages: Record<string, { payload: JsonSchema }>;
      'x-hub-filter'?: string;
      'x-hub-stream'?: string;
      'x-hub-deprecated'?: { replacedBy: string; until: string };
    }
  >;
}

/**
 * Everything in `current` that would break a subscriber of `previous`: a channel removed before
 * the end of its deprecation window, a subject, filter, stream or message gone, a payload that
 * accepts what the previous one refused.
 */
export function breakingChanges(previous: DocumentLike, current: DocumentLike, now = new Date()): string[] {
  const out: string[] = [];
  for (const [id, prev] of Object.entries(previous.channels)) {
    const cur = current.channels[id];
    const deprecation = prev['x-hub-deprecated'];
    if (!cur) {
      if (!deprecation || now < new Date(deprecation.until)) {
        out.push(
          `channel ${id} (${prev.address}) was removed${deprecation ? ` before ${deprecation.until}` : ' without a deprecation window'}`,
        );
      }
      continue;
    }
    for (const key of ['address', 'x-hub-filter', 'x-hub-stream'] as const) {
      if (prev[key] !== cur[key])
        out.push(`channel ${id}: ${key} changed from ${String(prev[key])} to ${String(cur[key])}`);
    }
    for (const [name, message] of Object.entries(prev.messages)) {
      const next = cur.messages[name];
      if (!next) out.push(`channel ${id}: message ${name} was removed`);
      else out.push(...schemaBreaks(message.payload, next.payload, `${id}.${name}`));
    }
  }
  return out;
}
