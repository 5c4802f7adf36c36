import { plainToInstance, TransformationType } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, type ValidationError, type ValidatorOptions, validateSync } from 'class-validator';
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

const plainCopies = new WeakMap<object, boolean>();

/**
 * True when class-transformer would only copy the payload's fields onto a new instance: no
 * @Type, @Transform, @Expose or @Exclude on the class or on a property that has rules (any other
 * is stripped by the whitelist). Decorators run when a class is defined, so once per class.
 */
function copiesPlainly(request: PayloadClass<unknown>): boolean {
  let plain = plainCopies.get(request);
  if (plain === undefined) {
    const properties = new Set(getMetadataStorage().getTargetValidationMetadatas(request, '', true, false).map((m) => m.propertyName));
    const storage = defaultMetadataStorage;
    plain = storage.getStrategy(request) === 'none' && ![...properties].some((p) =>
      storage.findTypeMetadata(request, p) !== undefined ||
      storage.findTransformMetadatas(request, p, TransformationType.PLAIN_TO_CLASS).length > 0 ||
      storage.findExposeMetadata(request, p) !== undefined ||
      storage.findExcludeMetadata(request, p) !== undefined);
    plainCopies.set(request, plain);
  }
  return plain;
}

/**
 * The payload on an instance of its class. A payload is always a fresh value (JSON from NATS, a
 * jsonCopy in process), so its fields are copied as they are, except `__proto__`, which must not
 * become the instance's prototype; class-transformer runs only for classes that ask for it
 * (it cost about 2 µs and 2 KB per call on the members read, decision 0300).
 */
function instanceOf<T>(request: PayloadClass<T>, data: object): T {
  if (!copiesPlainly(request)) return plainToInstance(request, data);
  const dto = new request() as Record<string, unknown>;
  for (const key of Object.keys(data)) if (key !== '__proto__') dto[key] = (data as Record<string, unknown>)[key];
  return dto as T;
}

/** Validates an RPC payload into an instance of its request class; a 400 naming the field otherwise. */
export function validatePayload<T>(request: PayloadClass<T>, data: unknown): T {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new BadRequestError('the message payload must be an object');
  const dto = instanceOf(request, data);
  const errors = validateSync(dto as object, OPTIONS);
  if (errors.length > 0) throw new BadRequestError(flattenValidationErrors(errors).join('; ') || 'invalid message');
  return dto;
}
