import { ApiResponse } from '@nestjs/swagger';
import { ErrorBody } from '@hub/contracts';

/**
 * An error answer an operation gives for its own reasons (an unknown organization, a name taken),
 * with the one error body. The answers every operation of a kind can give (401, 429, 5xx…) are
 * added to the document by `withEdgeResponses` instead of being repeated here.
 */
export function ApiErrorResponse(status: number, description: string): MethodDecorator & ClassDecorator {
  return ApiResponse({ status, description, type: ErrorBody });
}
