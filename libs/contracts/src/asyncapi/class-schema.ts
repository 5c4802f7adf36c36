import { plainToInstance } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';

type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/** A JSON Schema (draft 7, the AsyncAPI schema format's base), inlined: no `$ref`. */
export type JsonSchema = { [key: string]: unknown };

type Rule = (schema: JsonSchema, constraints: unknown[]) => void;

const ISO_DATE: Rule = (s) => Object.assign(s, { type: 'string', format: 'date-time' });

/**
 * What each class-validator rule means as JSON Schema. A rule missing here leaves the property
 * open (any value) and names itself in `x-validation`, so the document never claims more than
 * the hub checks; the spec lists every rule the event payloads use today.
 */
const RULES: Record<string, Rule> = {
  isString: (s) => (s['type'] = 'string'),
  isInt: (s) => (s['type'] = 'integer'),
  isNumber: (s) => (s['type'] = 'number'),
  isBoolean: (s) => (s['type'] = 'boolean'),
  isObject: (s) => (s['type'] = 'object'),
  isIn: (s, [values]) => (s['enum'] = [...(values as unknown[])]),
  isEnum: (s, [entity]) => (s['enum'] = Object.values(entity as object)),
  matches: (s, [pattern]) => addPattern(s, (pattern as RegExp).source),
  isIso8601: ISO_DATE,
  isDateString: ISO_DATE,
  isEmail: (s) => Object.assign(s, { type: 'string', format: 'email' }),
  isUrl: (s) => Object.assign(s, { type: 'string', format: 'uri' }),
  isUuid: (s) => Object.assign(s, { type: 'string', format: 'uuid' }),
  isLength: (s, [min, max]) =>
    Object.assign(s, { type: 'string', minLength: min, ...(max === undefined ? {} : { maxLength: max }) }),
  minLength: (s, [min]) => Object.assign(s, { type: 'string', minLength: min }),
  maxLength: (s, [max]) => Object.assign(s, { type: 'string', maxLength: max }),
  min: (s, [min]) => (s['minimum'] = min),
  max: (s, [max]) => (s['maximum'] = max),
  isPositive: (s) => (s['exclusiveMinimum'] = 0),
  isNotEmpty: (s) => (s['not'] = { enum: ['', null] }),
};

/**
 * A property with several `@Matches` (a subclass narrowing an inherited pattern) must match each:
 * the first is `pattern`, every other one a conjunct of `allOf`, as class-validator checks them.
 */
function addPattern(s: JsonSchema, pattern: string): void {
  s['type'] = 'string';
  const all = (s['allOf'] as JsonSchema[] | undefined) ?? [];
  if (s['pattern'] === undefined && all.length === 0) {
    s['pattern'] = pattern;
    return;
  }
  if (s['pattern'] === pattern || all.some((c) => c['pattern'] === pattern)) return;
  if (s['pattern'] !== undefined) all.push({ type: 'string', pattern: s['pattern'] });
  delete s['pattern'];
  s['allOf'] = [...all, { type: 'string', pattern }];
}

/** Rules on the array itself rather than on each item. */
const ARRAY_RULES: Record<string, Rule> = {
  isArray: (s) => (s['type'] = 'array'),
  arrayMaxSize: (s, [max]) => (s['maxItems'] = max),
  arrayMinSize: (s, [min]) => (s['minItems'] = min),
  arrayNotEmpty: (s) => (s['minItems'] = 1),
  arrayUnique: (s) => (s['uniqueItems'] = true),
};

// class-validator's ValidationTypes of `@IsOptional`/`@ValidateIf` and `@ValidateNested`.
const CONDITIONAL = 'conditionalValidation';
const NESTED = 'nestedValidation';

/**
 * The class `@Type` names for a property, found through class-transformer's public API: an
 * empty object given for the property comes back as an instance of that class (of each item's
 * class for an array property). No `@Type`: it stays a plain object.
 */
function nestedClass(target: new () => unknown, property: string): (new () => unknown) | undefined {
  const probe = plainToInstance(target, { [property]: {} }) as Record<string, unknown>;
  const value = probe[property];
  const cls = typeof value === 'object' && value !== null ? (value.constructor as unknown) : undefined;
  return typeof cls === 'function' && cls !== Object ? (cls as new () => unknown) : undefined;
}

/** `IsOptional` also lets `null` through (class-validator skips null and undefined alike). */
function orNull(schema: JsonSchema): JsonSchema {
  const type = schema['type'];
  if (Array.isArray(schema['enum'])) schema['enum'] = [...(schema['enum'] as unknown[]), null];
  if (typeof type === 'string') return { ...schema, type: [type, 'null'] };
  if (type === undefined) return schema;
  return { anyOf: [schema, { type: 'null' }] };
}

function propertySchema(
  target: new () => unknown,
  property: string,
  rules: ValidationMetadata[],
  depth: number,
): JsonSchema {
  const isArray = rules.some((r) => r.name === 'isArray' || r.each);
  const outer: JsonSchema = {};
  const inner: JsonSchema = {};
  const unknown: string[] = [];
  for (const r of rules) {
    if (r.type === CONDITIONAL) continue;
    if (r.type === NESTED) {
      const cls = nestedClass(target, property);
      if (cls) Object.assign(inner, classSchema(cls, depth + 1));
      continue;
    }
    const name = r.name ?? r.type;
    const arrayRule = ARRAY_RULES[name];
    if (arrayRule && isArray) {
      arrayRule(outer, r.constraints ?? []);
      continue;
    }
    const rule = RULES[name];
    if (rule) rule(isArray ? inner : outer, r.constraints ?? []);
    else unknown.push(name);
  }
  let schema: JsonSchema = isArray ? { ...outer, type: 'array', items: inner } : { ...outer, ...inner };
  if (unknown.length > 0) schema['x-validation'] = unknown;
  if (rules.some((r) => r.type === CONDITIONAL)) schema = orNull(schema);
  return schema;
}

/**
 * The JSON Schema of a class-validator payload class: what a message must look like to pass
 * the hub's own consumers. Properties with rules are listed (required unless `IsOptional`);
 * unknown extra members are allowed, as the hub's consumers allow them.
 */
export function classSchema(cls: new () => unknown, depth = 0): JsonSchema {
  if (depth > 8) return { type: 'object' };
  const metas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const m of metas) byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [property, rules] of byProperty) {
    properties[property] = propertySchema(cls, property, rules, depth);
    if (!rules.some((r) => r.type === CONDITIONAL)) required.push(property);
  }
  const schema: JsonSchema = { type: 'object', title: cls.name, properties };
  if (required.length > 0) schema['required'] = required;
  return schema;
}
