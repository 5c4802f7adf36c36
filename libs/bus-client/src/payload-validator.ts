import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { type JsonSchema } from './event-definition';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string; payload: unknown };

/**
 * Enums in the contract are open (the hub may add a value without a new major version): the
 * known values stay in the document for people and types, validation accepts any value of the
 * type. See the hub's decision 0701.
 */
function openEnums(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openEnums);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) if (k !== 'enum') out[k] = openEnums(v);
  const values = (schema as Record<string, unknown>)['enum'];
  if (Array.isArray(values) && out['type'] === undefined) {
    out['type'] = [...new Set(values.map((v) => (v === null ? 'null' : typeof v)))];
  }
  return out;
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '(payload)'} ${e.message ?? 'is invalid'}`.trim()).join('; ');
}

/** Parses a message and checks it against its event's schema (compiled once per schema). */
export class PayloadValidator {
  private readonly ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
  private readonly compiled = new WeakMap<JsonSchema, ValidateFunction>();

  check<T>(schema: JsonSchema, text: string): Checked<T> {
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      return { ok: false, error: 'payload is not JSON', payload: text };
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      return { ok: false, error: 'payload must be a JSON object', payload };
    }
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(openEnums(schema) as JsonSchema);
      this.compiled.set(schema, validate);
    }
    return validate(payload)
      ? { ok: true, value: payload as T }
      : { ok: false, error: describe(validate.errors), payload };
  }
}
