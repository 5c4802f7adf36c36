import { plainToInstance } from 'class-transformer';
import { type ValidationError, type ValidatorOptions, validateSync } from 'class-validator';
import { BadRequestError, cacheValidationMetadata, type PayloadClass } from '@hub/contracts';

// Every RPC payload and event is validated here: keep class-validator's per-class lookups.
cacheValidationMetadata();

/** class-validator's messages start with the property; nested ones get their path in front. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const own = Object.values(e.constraints ?? {}).map((m) => (parent ? `${parent}.${m}` : m));
    const path = parent ? `${parent}.${e.property}` : e.property;
    return [...own, ...flattenValidationErrors(e.children ?? [], path)];
  });
}

/**
 * What Nest's ValidationPipe did for us (whitelist, transform), without the pipe around it.
 * forbidUnknownValues is off because we always validate an instance of the descriptor's class
 * (a request class with no rules, like an empty one, is valid and gets every field stripped).
 * Synchronous: our contracts have no async validators, and a sync run allocates no promises per
 * property.
 */
const OPTIONS: ValidatorOptions = { whitelist: true, forbidUnknownValues: false };

/** Validates an RPC payload into an instance of its request class; a 400 naming the field otherwise. */
export function validatePayload<T>(request: PayloadClass<T>, data: unknown): T {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new BadRequestError('the message payload must be an object');
  // Through class-transformer's public API for every class: it skips `__proto__` and
  // `constructor` keys, applies @Type/@Transform where a class has them, and costs a few µs.
  const dto = plainToInstance(request, data);
  const errors = validateSync(dto as object, OPTIONS);
  if (errors.length > 0) throw new BadRequestError(flattenValidationErrors(errors).join('; ') || 'invalid message');
  return dto;
}
