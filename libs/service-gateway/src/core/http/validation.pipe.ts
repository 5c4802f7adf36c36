import { type ArgumentMetadata, BadRequestException, Injectable, type PipeTransform, ValidationPipe } from '@nestjs/common';
import { flattenValidationErrors } from '@hub/messaging';

const inner = new ValidationPipe({
  whitelist: true,
  transform: true,
  forbidUnknownValues: false,
  // One message per field, the first rule it breaks: clearer than every rule at once.
  stopAtFirstError: true,
  exceptionFactory: (errors) => new BadRequestException(flattenValidationErrors(errors).join('; ') || 'Invalid request'),
});

/**
 * The contracts DTOs validate every body and query. A body that is not a JSON object is named
 * as such instead of reaching the validator (which would report every field missing).
 */
@Injectable()
export class HubValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const isDto = typeof metadata.metatype === 'function' && ![String, Number, Boolean, Object, Array].includes(metadata.metatype as never);
    if (metadata.type === 'body' && isDto && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw new BadRequestException('Request body must be a JSON object');
    }
    return inner.transform(value, metadata);
  }
}
