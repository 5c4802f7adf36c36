import { applyDecorators, Header } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { SCIM_CONTENT_TYPE, ScimErrorBody } from '@hub/contracts';
import { OrgScoped } from '../core';

/** Spec 5.5: the caller is an owner (admin) of the organization, with a write token, and the organization is on Enterprise Plus. */
export const ScimScoped = (answer: 'body' | 'no content' = 'body'): MethodDecorator =>
  applyDecorators(
    OrgScoped({ role: 'admin', minPlan: 'enterprise_plus', writeToken: true }),
    // A 204 carries no body, so no content type either.
    ...(answer === 'body' ? [Header('Content-Type', `${SCIM_CONTENT_TYPE}; charset=utf-8`)] : []),
    ApiResponse({
      status: 403,
      description: 'Not an admin of the organization, a read token, or the plan is not Enterprise Plus',
      type: ScimErrorBody,
    }),
    ApiResponse({ status: 404, description: 'No such organization, or no such resource in it', type: ScimErrorBody }),
  );

/** A SCIM controller: every answer, errors included, is application/scim+json (RFC 7644 3.1). */
export const ScimController = (): ClassDecorator =>
  applyDecorators(ApiTags('scim'), ApiBearerAuth(), ApiProduces(SCIM_CONTENT_TYPE), ApiExtraModels(ScimErrorBody));

export function ApiScimError(status: number, description: string): MethodDecorator {
  return ApiResponse({ status, description, type: ScimErrorBody });
}

/**
 * A route path and the same with a trailing slash (`/Users/` finds `/Users`): Nest drops one
 * trailing slash when it joins paths, so the second form ends in two.
 */
export const andSlash = (path = ''): string[] => [path, `${path}//`];
