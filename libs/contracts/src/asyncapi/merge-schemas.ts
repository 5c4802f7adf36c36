import { type JsonSchema } from './class-schema';

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isObjectSchema(s: JsonSchema): boolean {
  return s['type'] === 'object' && typeof s['properties'] === 'object';
}

/**
 * One schema a message must satisfy when several consumers' classes describe one subject (the
 * webhooks' and the catalogue's views of `hub.events.repo.*`): properties and `required` are
 * united, a property both describe differently must satisfy both (`allOf`).
 */
export function mergeSchemas(a: JsonSchema, b: JsonSchema): JsonSchema {
  if (same(a, b)) return a;
  if (!isObjectSchema(a) || !isObjectSchema(b)) {
    // Two leaf schemas that never say different things about one keyword are one schema.
    const conflict = Object.keys(b).some((k) => k in a && !same(a[k], b[k]));
    return conflict ? { allOf: [a, b] } : { ...a, ...b };
  }
  const pa = a['properties'] as Record<string, JsonSchema>;
  const pb = b['properties'] as Record<string, JsonSchema>;
  const properties: Record<string, JsonSchema> = { ...pa };
  for (const [key, schema] of Object.entries(pb)) properties[key] = key in pa ? mergeSchemas(pa[key], schema) : schema;
  const required = [...new Set([...((a['required'] as string[]) ?? []), ...((b['required'] as string[]) ?? [])])];
  const titles = [a['title'], b['title']].filter((t) => typeof t === 'string' && t.length > 0);
  const out: JsonSchema = { type: 'object', title: [...new Set(titles)].join(' & '), properties };
  if (required.length > 0) out['required'] = required;
  return out;
}
