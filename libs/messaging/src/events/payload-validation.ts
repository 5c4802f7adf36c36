import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, ValidationTypes } from 'class-validator';
import { type PayloadClass } from '@hub/contracts';
import { flattenValidationErrors } from '../rpc/payload-validation';

export type Validated<T> = { ok: true; value: T } | { ok: false; error: string; payload: unknown };

/**
 * `@ValidateNested()` alone lets a missing object through (class-validator validates what is
 * there), while the published schema (the AsyncAPI document, class-schema.ts in contracts) lists
 * every property with rules and no `@IsOptional` as required: a discussion event without `actor`
 * passed validation and then threw in the handler, retried until dead-lettered (issue 22). Here
 * such a property must be an object, at every level, so every consumer reads the schema alike.
 */
function missingNested(instance: object, path = ''): string[] {
  const rules = getMetadataStorage().getTargetValidationMetadatas(instance.constructor, '', true, false);
  const problems: string[] = [];
  for (const property of new Set(
    rules.filter((r) => r.type === ValidationTypes.NESTED_VALIDATION).map((r) => r.propertyName),
  )) {
    const value = (instance as Record<string, unknown>)[property];
    if (value === undefined || value === null) {
      const optional = rules.some(
        (r) => r.propertyName === property && r.type === ValidationTypes.CONDITIONAL_VALIDATION,
      );
      if (!optional) problems.push(`${path}${property} must be an object`);
      continue;
    }
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (typeof item === 'object' && item !== null) problems.push(...missingNested(item, `${path}${property}.`));
    }
  }
  return problems;
}

/**
 * A payload against its descriptor's class-validator class: what every consumer does before its
 * handler runs (and `POST /admin/events` before publishing). Classes without rules (free-form
 * payloads) accept any JSON object.
 */
export function validateEventPayload<T>(cls: PayloadClass<T>, raw: unknown): Validated<T> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, error: 'payload must be a JSON object', payload: raw };
  }
  const value = plainToInstance(cls, raw);
  const errors = validateSync(value as object, { forbidUnknownValues: false });
  const problems = errors.length > 0 ? flattenValidationErrors(errors) : missingNested(value as object);
  if (problems.length > 0) return { ok: false, error: problems.join('; '), payload: raw };
  return { ok: true, value };
}

/**
 * What a consumer does first with a message: parse it and validate it. Synchronous on purpose:
 * listeners run in publish order.
 */
export function parseEventPayload<T>(cls: PayloadClass<T>, text: string): Validated<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: 'payload is not JSON', payload: text };
  }
  return validateEventPayload(cls, raw);
}

/**
 * A message this process validated against `cls` before publishing it (decision 0512): parsed into
 * its class as `parseEventPayload` would, without the rules run again. Each consumer gets its own
 * instance, as from `parseEventPayload`.
 */
export function parseCheckedPayload<T>(cls: PayloadClass<T>, text: string): Validated<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return parseEventPayload(cls, text);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return validateEventPayload(cls, raw);
  return { ok: true, value: plainToInstance(cls, raw) };
}
