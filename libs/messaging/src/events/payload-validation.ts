import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { type PayloadClass } from '@hub/contracts';
import { flattenValidationErrors } from '../rpc/payload-validation';

export type Validated<T> = { ok: true; value: T } | { ok: false; error: string; payload: unknown };

/**
 * What a consumer does first with a message: parse it and check it against the descriptor's
 * class-validator class. Synchronous on purpose: listeners run in publish order. Classes without
 * rules (free-form payloads) accept any JSON object.
 */
export function parseEventPayload<T>(cls: PayloadClass<T>, text: string): Validated<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: 'payload is not JSON', payload: text };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, error: 'payload must be a JSON object', payload: raw };
  }
  const value = plainToInstance(cls, raw);
  const errors = validateSync(value as object, { forbidUnknownValues: false });
  if (errors.length > 0) return { ok: false, error: flattenValidationErrors(errors).join('; '), payload: raw };
  return { ok: true, value };
}
