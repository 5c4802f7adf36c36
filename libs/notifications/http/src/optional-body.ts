import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { BadRequestError, type PayloadClass } from '@hub/contracts';
import { flattenValidationErrors } from '@hub/messaging';

/** A body that may be absent: absent is an empty DTO; present, it must be an object passing the DTO's rules. */
export function optionalBody<T extends object>(cls: PayloadClass<T>, raw: unknown): T {
  if (raw === undefined || raw === null || raw === '') return new cls();
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new BadRequestError('Request body must be a JSON object');
  const dto = plainToInstance(cls, raw);
  const errors = validateSync(dto, { whitelist: true, forbidUnknownValues: false, stopAtFirstError: true });
  if (errors.length > 0) throw new BadRequestError(flattenValidationErrors(errors).join('; '));
  return dto;
}
